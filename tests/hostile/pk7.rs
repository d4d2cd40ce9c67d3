//! PK7 (7z) packages are read within bounds whatever their header declares: a coder that
//! declares a 4 GiB LZMA2 dictionary, in the data's folder or in a compressed header's, is
//! refused before anything reserves it. The binary's allocator (`support::alloc_count`)
//! records the largest request the reading thread makes and refuses (returns null for) any
//! past 1 GiB, so a decoder that did reserve the dictionary shows up here as that request, not
//! as the machine running out of memory.

use std::io::Cursor;

use mapscope::formats::doom::archive::pk7::read_package;
use mapscope::formats::doom::archive::pk7_writer::{seven_zip, SevenZipLayout};

use crate::support::alloc_count::largest_request;

/// Requests past this are refused while a package is read.
const REFUSED_PAST: usize = 1 << 30;

#[test]
fn a_4_gib_dictionary_is_refused_without_reserving_it() {
    let map = b"PWAD\0\0\0\0\x0c\0\0\0".to_vec();
    let members: [(&str, &[u8]); 2] = [("maps/MAP01.wad", &map), ("TEXTURES.txt", b"")];
    let layouts = [
        // The data folder's dictionary, with the header stored plainly and compressed.
        SevenZipLayout { encoded_header: None, ..SevenZipLayout::lzma2_dictionary(40) },
        SevenZipLayout::lzma2_dictionary(40),
        // The compressed header's own dictionary.
        SevenZipLayout { encoded_header: Some(40), ..SevenZipLayout::default() },
    ];
    for layout in layouts {
        let bytes = seven_zip(&members, &layout);
        let (result, largest) = largest_request(REFUSED_PAST, || {
            read_package("big-dictionary.pk7", Cursor::new(bytes))
        });
        let e = match result {
            Ok(_) => panic!("{layout:?}: read"),
            Err(e) => e,
        };
        assert!(e.message.contains("LZMA2 dictionary of 4294967295 bytes"), "{layout:?}: {e}");
        assert_eq!(e.file, "big-dictionary.pk7");
        assert!(largest < 1 << 20, "{layout:?}: an allocation of {largest} bytes");
        // Nothing recorded would mean the binary's allocator is not `CountingAlloc`.
        assert!(largest > 0, "{layout:?}: no allocation recorded");
    }
    // The same archive with a 1 MiB dictionary reads.
    let ok = seven_zip(&members, &SevenZipLayout::default());
    assert!(read_package("ok.pk7", Cursor::new(ok)).is_ok());
}
