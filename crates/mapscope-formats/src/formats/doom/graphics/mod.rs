//! What Doom draws with: pictures and PNG lumps, PLAYPAL and COLORMAP, flats, sprites,
//! wall textures (TEXTURE1/2 and TEXTURES) with their scales and vanilla's texture memory,
//! the things as vanilla's renderer holds them, and the status bar picture. Grouped because
//! they turn lumps into texels and palettes, whatever map uses them.

pub mod flats;
pub mod palette;
pub mod palette_match;
pub mod picture;
pub mod png_lump;
pub mod sprite_memory;
pub mod sprites;
pub mod status_bar;
pub mod texture_memory;
pub mod texture_scale;
pub mod textures;
pub mod textures_lump;
