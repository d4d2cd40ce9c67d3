//! Every limit mapscope puts on what it reads from a file: how many bytes it inflates, decodes
//! or keeps, how many records it accepts, how deep an include or a nesting may go. Files are
//! untrusted (a count or size field may claim anything, a zip bomb inflates past what it
//! claims), and these are the numbers that keep a hostile file from taking unbounded memory
//! or time; gathered here so that they can be read, and weighed against each other, at once.
//!
//! Each limit sits far above what real levels need, so that a real level is never refused;
//! the parser that applies it says, in its error or note, which limit a file passed. Limits
//! that the games' own formats fix (record slots, version numbers) stay with their parsers.

/// Largest single allocation any parser makes from counts found in a file (256 MiB).
/// Every count is also checked against the bytes that exist before allocating.
pub const MAX_ALLOC: usize = 256 << 20;

// Zip members, shared by every format that comes in a zip (Saucerman's `Saucerdata.pak`,
// Doom's PK3 packages) and by PK7 members.

/// Largest member inflated (64 MiB; level files and textures are a few MB). Keeps a zip bomb
/// from growing a buffer anywhere near [`MAX_ALLOC`].
pub const MAX_MEMBER: usize = 64 << 20;
/// Deflate's best ratio is about 1032:1; a declared size beyond that is not believed.
pub const MAX_DEFLATE_RATIO: u64 = 1032;

/// Doom and its source ports: packages, maps, text lumps, pictures and textures.
pub mod doom {
    use super::MAX_ALLOC;

    // Packages (PK3, PK7 and mod folders).

    /// Most members a package may list (large mods hold a few tens of thousands); for a
    /// folder, the files and folders its walk meets.
    pub const MAX_PACKAGE_ENTRIES: usize = 1 << 20;
    /// Deepest a mod folder's walk goes below the folder given (mods nest a few folders,
    /// `textures/set/part/`): past it the folder is refused, which also stops a chain of
    /// links (or mounts) that never cycles back to the same folder.
    pub const MAX_FOLDER_DEPTH: usize = 32;
    /// Most bytes read from one package, all members together: the single-allocation cap.
    pub const MAX_PACKAGE_BYTES: usize = MAX_ALLOC;
    /// Most bytes a PK7's header (its member list) may take, stored or decoded.
    pub const MAX_PK7_HEADER: u64 = 64 << 20;
    /// Largest LZMA or LZMA2 dictionary accepted: the decoder reserves it whole (and
    /// zero-fills it), and a dictionary only ever has to hold what was unpacked before, which
    /// a package may not keep past [`MAX_PACKAGE_BYTES`].
    pub const MAX_PK7_DICTIONARY: u64 = MAX_PACKAGE_BYTES as u64;
    /// A dictionary up to this size is accepted whatever its coder unpacks: the largest preset
    /// of 7-Zip (ultra) and xz (-9). Past it, the dictionary may be at most twice what its
    /// coder unpacks (7-Zip cuts a dictionary to the next size up from the data's; the sizes
    /// LZMA2 can declare step by 1.5 and 2), up to [`MAX_PK7_DICTIONARY`].
    pub const PK7_DICTIONARY_FLOOR: u64 = 64 << 20;
    /// Most coders in one 7z folder (7-Zip writes one to three: a filter, a compressor, a
    /// cipher).
    pub const MAX_PK7_FOLDER_CODERS: usize = 4;
    /// Most bytes decoded to reach the PK7 members read, those skipped in solid folders
    /// included (a solid folder is one stream, decoded up to its last member read).
    pub const MAX_PK7_DECODED: u64 = 4 * MAX_PACKAGE_BYTES as u64;

    // Maps.

    /// Longest decompressed ZDoom node stream accepted (64 MiB): the largest community maps
    /// need a few MiB, so anything past this is a hostile or corrupt stream, not a map.
    pub const MAX_INFLATED_NODES: usize = 64 << 20;
    /// Largest UDMF TEXTMAP accepted (the largest community maps are a few MiB).
    pub const MAX_UDMF_INPUT: usize = 64 << 20;
    /// Most UDMF blocks (vertices, lines, sides, sectors, things together).
    pub const MAX_UDMF_BLOCKS: usize = 4_000_000;
    /// Most assignments in one UDMF document.
    pub const MAX_UDMF_ASSIGNMENTS: usize = 32_000_000;
    /// Sectors a map's 3D floor slabs may reach in all (a slab counted once per sector it is
    /// built in): each slab is built in every sector it reaches, and a crafted map could ask
    /// for every sector from every line.
    pub const MAX_SLAB_SECTORS: usize = 1 << 16;

    // Text lumps (MAPINFO, TEXTURES, ANIMDEFS ...).

    /// Largest text lump accepted (the largest TEXTURES of big mods are a few hundred KiB).
    pub const MAX_SCRIPT: usize = 16 << 20;
    /// How deep MAPINFO's `include` may nest (a lump including itself stops here).
    pub const MAX_MAPINFO_INCLUDE_DEPTH: usize = 8;
    /// Deepest `#include` chain in TEXTURES lumps.
    pub const MAX_TEXTURES_INCLUDE_DEPTH: usize = 8;

    // Actor definitions (DECORATE, ZScript, MAPINFO's DoomEdNums).

    /// Deepest `#include` chain in DECORATE and ZScript (big mods nest three or four deep).
    pub const MAX_ACTOR_INCLUDE_DEPTH: usize = 16;
    /// Most script lumps read for actors in all: a lump is read once however often it is
    /// included, so this only bounds a package of thousands of script members.
    pub const MAX_ACTOR_SCRIPTS: usize = 4096;
    /// Most actor classes kept (the largest mods define a few thousand).
    pub const MAX_ACTOR_CLASSES: usize = 1 << 16;
    /// Most states kept over every class (`SPRT ABCDEFGH 4` is eight): frame strings expand
    /// to a state a letter, so a short script could otherwise ask for millions.
    pub const MAX_ACTOR_STATES: usize = 1 << 20;
    /// Longest parent chain followed, and longest chain of `replaces` (a cycle stops here).
    pub const MAX_ACTOR_INHERITANCE: usize = 64;
    /// Most states a spawn sequence is followed through (its gotos and loops) before it is
    /// given up as unreadable.
    pub const MAX_SPAWN_WALK: usize = 1024;
    /// Deepest nesting of braces and parentheses skipped in a script (function bodies,
    /// argument lists): skipping only counts, so this is not for the stack's sake but to
    /// give a runaway nesting a clear error (real code nests a dozen deep).
    pub const MAX_ACTOR_NESTING: usize = 256;

    // Pictures and textures.

    /// Largest picture accepted (texels). Vanilla pictures are at most a few hundred texels
    /// on a side; this keeps a hostile header from requesting gigabytes.
    pub const MAX_PICTURE_TEXELS: usize = 4096 * 4096;
    /// Longest side of a PNG picture accepted (a picture's width and height are 16-bit
    /// numbers).
    pub const MAX_PNG_SIDE: u32 = 32767;
    /// Longest side of a defined texture (sizes are 16-bit numbers).
    pub const MAX_TEXTURE_SIDE: i64 = 32767;
    /// Deepest chain of textures used as patches of textures (GZDoom allows it; a cycle
    /// stops).
    pub const MAX_TEXTURE_NESTING: usize = 4;
    /// Most texels the patch cache keeps (32 MiB of texels and masks). A PNG of a few KiB can
    /// claim 16M texels, so a package could otherwise make the cache hold gigabytes; past
    /// this, pictures are decoded for each use and dropped.
    pub const MAX_CACHED_TEXELS: usize = 1 << 24;
    /// Most bytes the canvas's texture memory holds (patch lumps and composites, each once).
    /// Vanilla's own limits (64 KiB composites, lumps in a WAD) keep real levels far below
    /// it; past it a texture's columns are drawn from its composed texels, with a note.
    pub const MAX_TEXTURE_MEMORY_BYTES: usize = 64 << 20;
    /// Sprite lump bytes kept at most; past this, patches are encoded from their pictures.
    pub const MAX_SPRITE_BYTES: usize = 64 << 20;
}

/// Attack of the Saucerman.
pub mod saucer {
    use super::MAX_MEMBER;

    /// Most bytes the package's local-header walk (its fallback when the central directory
    /// is broken) keeps over all members (128 MiB): twice the largest member.
    pub const MAX_WALKED: usize = 2 * MAX_MEMBER;
}

/// Marathon 1, 2 and Infinity.
pub mod marathon {
    /// Period-0 light states skipped in a row before a light stays in its state for a tick:
    /// the engine skips such states (`lightsource.cpp`), and a cycle of nothing but them
    /// would loop for ever there.
    pub const MAX_SKIPS: u32 = 64;

    /// Panel end heights at one endpoint past which the panels there are not cut at each
    /// other's ends (the cuts that keep beside-each-other panels crack-free): real endpoints
    /// hold a few, and each height cuts every panel ending there, so a file stacking sides
    /// at one endpoint would otherwise grow the walls with the square of their number.
    pub const MAX_JOINT_HEIGHTS: usize = 16;
}

/// PNG files `mapscope compare` (and `compare --align`) reads: reference screenshots and
/// renders.
pub mod compare {
    use super::MAX_ALLOC;

    /// Largest width or height a PNG may have: an 8192 x 8192 RGBA8 result is exactly
    /// [`MAX_ALLOC`] (the conversion to RGBA8 allocates after the decoder).
    pub const MAX_PNG_DIMENSION: u32 = 8192;
    /// Largest allocation (bytes) the PNG decoder may make: the parsers' cap, 256 MiB.
    pub const MAX_PNG_ALLOC: u64 = MAX_ALLOC as u64;
}
