//! Doom's status bar picture (`STBAR`, 320x32, drawn below a 168-row view): what a screenshot
//! of the game shows in its bottom rows when the bar is up, so that the viewer can tell such a
//! screenshot from a full-screen one.

use std::path::Path;

use crate::formats::Result;
use crate::scene::HudPicture;

use super::palette::load_palette;
use super::palette_match::PaletteMatcher;
use super::picture::Picture;
use crate::formats::doom::archive::wad::WadStack;

/// `STBAR` of the files (IWAD first, later files overriding), in PLAYPAL's colours; `None` when
/// they hold no such picture.
pub fn status_bar<P: AsRef<Path>>(paths: &[P]) -> Result<Option<HudPicture>> {
    let stack = WadStack::open(paths)?;
    let Some(lump) = stack.lump("STBAR") else { return Ok(None) };
    let palette = load_palette(&stack)?;
    let picture = Picture::decode(&lump, &mut PaletteMatcher::new(&palette))?;
    let rgb = picture
        .index
        .iter()
        .zip(&picture.opaque)
        .map(|(&i, &drawn)| drawn.then(|| palette.get(i as usize).copied().unwrap_or([0; 3])))
        .collect();
    Ok(Some(HudPicture { width: picture.width as usize, height: picture.height as usize, rgb }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freedoom_has_a_320x32_bar() {
        // The package is a test dependency (`testwad::freedoom` names it when it is missing).
        let _ = crate::formats::doom::testwad::freedoom();
        let bar = status_bar(&["/usr/share/games/doom/freedoom1.wad"]).unwrap().unwrap();
        assert_eq!((bar.width, bar.height, bar.rgb.len()), (320, 32, 320 * 32));
        assert!(bar.rgb.iter().filter(|c| c.is_some()).count() > 320 * 30);
    }

    #[test]
    fn files_without_one_have_none() {
        let dir = std::env::temp_dir().join(format!("mapscope-stbar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("empty.wad");
        std::fs::write(&path, crate::formats::doom::archive::writer::WadWriter::pwad().to_bytes())
            .unwrap();
        assert_eq!(status_bar(&[&path]).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
