//! Shader sources: the shared header, one family file, and the entry points, joined into one
//! module (WGSL has no includes).

use crate::scene::{Shading, ShadingFamily};

const COMMON: &str = include_str!("../../shaders/common.wgsl");
const WORLD: &str = include_str!("../../shaders/world.wgsl");
const DOOM: &str = include_str!("../../shaders/doom.wgsl");
const UNLIT: &str = include_str!("../../shaders/unlit.wgsl");
const TRANSLUCENT: &str = include_str!("../../shaders/translucent.wgsl");
const SAUCER: &str = include_str!("../../shaders/saucer.wgsl");
const MARATHON: &str = include_str!("../../shaders/marathon.wgsl");
const SATURN: &str = include_str!("../../shaders/saturn.wgsl");
const CARMA2: &str = include_str!("../../shaders/carma2.wgsl");
pub const BLIT: &str = include_str!("../../shaders/blit.wgsl");

/// Full WGSL source for a scene's shading family.
pub fn world_source(shading: &Shading) -> String {
    let family = match shading {
        Shading::DoomColormap { .. } => DOOM,
        Shading::Unlit => UNLIT,
        Shading::Family { family, .. } => match family {
            ShadingFamily::Saucer => SAUCER,
            ShadingFamily::Marathon => MARATHON,
            ShadingFamily::Saturn => SATURN,
            ShadingFamily::Carma2 => CARMA2,
        },
    };
    format!("{COMMON}\n{family}\n{TRANSLUCENT}\n{WORLD}")
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
            smooth_flats: vec![],
        }));
        validate(&world_source(&Shading::Unlit));
        for family in ShadingFamily::ALL {
            validate(&world_source(&Shading::Family { family, tables: vec![] }));
        }
        validate(BLIT);
    }
}
