//! A minimal drag source for the X11 drag-and-drop protocol (XDND, version 5): it drops files
//! on a window as a file manager does, so tests reach the viewer's drop handling through
//! winit and the X server rather than by calling it.

use std::path::Path;
use std::thread::sleep;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    Atom, ClientMessageEvent, ConnectionExt as _, CreateWindowAux, EventMask, PropMode,
    SelectionNotifyEvent, Window, WindowClass, SELECTION_NOTIFY_EVENT,
};
use x11rb::protocol::Event;
use x11rb::wrapper::ConnectionExt as _;
use x11rb::{COPY_DEPTH_FROM_PARENT, COPY_FROM_PARENT, CURRENT_TIME, NONE};

/// Drags `paths` onto `target` on `display` and drops them. Returns when the target reports
/// the drop finished (it has handled the files by then), or why it did not.
pub fn drop_files(display: &str, target: Window, paths: &[&Path]) -> Result<(), String> {
    let (conn, screen) =
        x11rb::connect(Some(display)).map_err(|e| format!("connecting to X on {display}: {e}"))?;
    let root = conn.setup().roots[screen].root;
    let atom = |name: &str| -> Result<Atom, String> {
        let cookie = conn.intern_atom(false, name.as_bytes()).map_err(|e| e.to_string())?;
        Ok(cookie.reply().map_err(|e| e.to_string())?.atom)
    };
    let enter = atom("XdndEnter")?;
    let position = atom("XdndPosition")?;
    let status = atom("XdndStatus")?;
    let drop = atom("XdndDrop")?;
    let finished = atom("XdndFinished")?;
    let selection = atom("XdndSelection")?;
    let uri_list = atom("text/uri-list")?;
    let copy = atom("XdndActionCopy")?;

    // The source window owns the drag's selection; the target asks it for the file list.
    let source = conn.generate_id().map_err(|e| e.to_string())?;
    let aux = CreateWindowAux::new();
    conn.create_window(
        COPY_DEPTH_FROM_PARENT,
        source,
        root,
        0,
        0,
        1,
        1,
        0,
        WindowClass::INPUT_ONLY,
        COPY_FROM_PARENT,
        &aux,
    )
    .map_err(|e| e.to_string())?;
    conn.set_selection_owner(source, selection, CURRENT_TIME).map_err(|e| e.to_string())?;
    let uris: String = paths.iter().map(|p| format!("file://{}\r\n", p.display())).collect();

    let send = |kind: Atom, data: [u32; 5]| -> Result<(), String> {
        let message = ClientMessageEvent::new(32, target, kind, data);
        conn.send_event(false, target, EventMask::NO_EVENT, message).map_err(|e| e.to_string())?;
        conn.flush().map_err(|e| e.to_string())
    };
    send(enter, [source, 5 << 24, uri_list, NONE, NONE])?;
    send(position, [source, 0, (16 << 16) | 16, CURRENT_TIME, copy])?;

    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let Some(event) = conn.poll_for_event().map_err(|e| e.to_string())? else {
            if Instant::now() > deadline {
                return Err("no XdndFinished from the window within 60 s".into());
            }
            sleep(Duration::from_millis(10));
            continue;
        };
        match event {
            Event::SelectionRequest(req) => {
                let property = if req.target == uri_list {
                    conn.change_property8(
                        PropMode::REPLACE,
                        req.requestor,
                        req.property,
                        uri_list,
                        uris.as_bytes(),
                    )
                    .map_err(|e| e.to_string())?;
                    req.property
                } else {
                    NONE
                };
                let notify = SelectionNotifyEvent {
                    response_type: SELECTION_NOTIFY_EVENT,
                    sequence: 0,
                    time: req.time,
                    requestor: req.requestor,
                    selection: req.selection,
                    target: req.target,
                    property,
                };
                conn.send_event(false, req.requestor, EventMask::NO_EVENT, notify)
                    .map_err(|e| e.to_string())?;
                conn.flush().map_err(|e| e.to_string())?;
            }
            Event::ClientMessage(m) if m.type_ == status => {
                if m.data.as_data32()[1] & 1 == 0 {
                    return Err("the window refused the drop (XdndStatus)".into());
                }
                send(drop, [source, 0, CURRENT_TIME, 0, 0])?;
            }
            Event::ClientMessage(m) if m.type_ == finished => {
                return if m.data.as_data32()[1] & 1 == 1 {
                    Ok(())
                } else {
                    Err("the window reported the drop not accepted (XdndFinished)".into())
                };
            }
            _ => {}
        }
    }
}
