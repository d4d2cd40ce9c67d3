//! Shader sources: the shared header, one family file, and the entry points, joined into one
//! module (WGSL has no includes).

use crate::scene::Shading;

const COMMON: &str = include_str!("../../shaders/common.wgsl");
const WORLD: &str = include_str!("../../shaders/world.wgsl");
const DOOM: &str = include_str!("../../shaders/doom.wgsl");
const UNLIT: &str = include_str!("../../shaders/unlit.wgsl");
pub const BLIT: &str = include_str!("../../shaders/blit.wgsl");

/// Full WGSL source for a scene's shading family.
pub fn world_source(shading: &Shading) -> String {
    let family = match shading {
        Shading::DoomColormap { .. } => DOOM,
        Shading::Unlit => UNLIT,
    };
    format!("{COMMON}\n{family}\n{WORLD}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(src: &str) {
        let module = naga::front::wgsl::parse_str(src)
            .unwrap_or_else(|e| panic!("{}", e.emit_to_string(src)));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(src)));
    }

    #[test]
    fn every_family_compiles() {
        validate(&world_source(&Shading::DoomColormap {
            colormap: vec![],
            segs: vec![],
            map: None,
        }));
        validate(&world_source(&Shading::Unlit));
        validate(BLIT);
    }
}
