//! Which way draws the frames (`--renderer auto|cpu|gpu`): the CPU canvases or the GPU's
//! passes.
//!
//! The two cost models are opposite. A software rasteriser (lavapipe, llvmpipe, WARP) runs a
//! fragment shader's every branch for every pixel and each full-screen pass costs
//! milliseconds, so there the CPU canvases draw: vanilla's columns and spans for Doom's exact
//! frames, the vector triangle canvas for the rest. On a graphics card per-pixel work is
//! nearly free and the CPU's is not, so there the GPU's passes draw, with one exception:
//! Doom's exact frames (faithful, 90° across, level camera) stay on vanilla's canvas under
//! `auto`, because only it reproduces vanilla's fixed-point walls, flats and sprite clipping
//! pixel for pixel (the GPU's passes light by depth the same way but rasterise by their own
//! rules), and that canvas costs a few milliseconds at any size a card drives. `--renderer
//! gpu` draws those frames with the GPU's passes too.

use std::fmt;
use std::str::FromStr;

/// The renderer asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RendererChoice {
    /// The canvases on a software adapter, the GPU's passes on a graphics card (Doom's exact
    /// frames on vanilla's canvas either way).
    #[default]
    Auto,
    /// Every frame a canvas can draw, on the CPU.
    Cpu,
    /// Every frame by the GPU's passes.
    Gpu,
}

/// Which frames may be drawn on the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CanvasPolicy {
    /// Doom's exact frames on vanilla's canvas.
    pub vanilla: bool,
    /// The frames the triangle canvas draws (faithful frames of Saturn Quake, Marathon,
    /// Saucerman and Carmageddon 2; Doom's smooth frames and faithful ones vanilla's canvas
    /// cannot draw).
    pub triangles: bool,
}

impl CanvasPolicy {
    /// Every canvas on (the renderer's state before any choice).
    pub const ALL: CanvasPolicy = CanvasPolicy { vanilla: true, triangles: true };
}

impl RendererChoice {
    pub const NAMES: [&'static str; 3] = ["auto", "cpu", "gpu"];

    /// The canvases this choice allows on an adapter of type `adapter`.
    pub fn policy(self, adapter: wgpu::DeviceType) -> CanvasPolicy {
        match self {
            RendererChoice::Cpu => CanvasPolicy::ALL,
            RendererChoice::Gpu => CanvasPolicy { vanilla: false, triangles: false },
            RendererChoice::Auto if is_software(adapter) => CanvasPolicy::ALL,
            RendererChoice::Auto => CanvasPolicy { vanilla: true, triangles: false },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RendererChoice::Auto => "auto",
            RendererChoice::Cpu => "cpu",
            RendererChoice::Gpu => "gpu",
        }
    }
}

/// Whether an adapter rasterises on the CPU. wgpu reports lavapipe, llvmpipe and WARP as
/// `Cpu`; an adapter of unknown type (`Other`) or a virtual GPU is taken to be hardware.
pub fn is_software(adapter: wgpu::DeviceType) -> bool {
    adapter == wgpu::DeviceType::Cpu
}

impl FromStr for RendererChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(RendererChoice::Auto),
            "cpu" => Ok(RendererChoice::Cpu),
            "gpu" => Ok(RendererChoice::Gpu),
            other => Err(format!("unknown renderer {other:?}: auto, cpu or gpu")),
        }
    }
}

impl fmt::Display for RendererChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::DeviceType;

    const ALL: CanvasPolicy = CanvasPolicy { vanilla: true, triangles: true };
    const NONE: CanvasPolicy = CanvasPolicy { vanilla: false, triangles: false };
    const EXACT_DOOM_ONLY: CanvasPolicy = CanvasPolicy { vanilla: true, triangles: false };

    #[test]
    fn auto_draws_on_the_cpu_on_a_software_adapter_and_on_the_gpu_on_a_card() {
        let auto = RendererChoice::Auto;
        assert_eq!(auto.policy(DeviceType::Cpu), ALL);
        for card in [
            DeviceType::DiscreteGpu,
            DeviceType::IntegratedGpu,
            DeviceType::VirtualGpu,
            DeviceType::Other,
        ] {
            // Doom's exact frames stay on vanilla's canvas: only it is exact.
            assert_eq!(auto.policy(card), EXACT_DOOM_ONLY, "{card:?}");
        }
    }

    #[test]
    fn cpu_and_gpu_hold_whatever_the_adapter() {
        for adapter in [DeviceType::Cpu, DeviceType::DiscreteGpu, DeviceType::Other] {
            assert_eq!(RendererChoice::Cpu.policy(adapter), ALL);
            assert_eq!(RendererChoice::Gpu.policy(adapter), NONE);
        }
    }

    #[test]
    fn names_parse_back_and_others_are_refused() {
        for name in RendererChoice::NAMES {
            let choice: RendererChoice = name.parse().unwrap();
            assert_eq!(choice.to_string(), name);
        }
        assert_eq!(" GPU ".parse::<RendererChoice>(), Ok(RendererChoice::Gpu));
        let err = "vulkan".parse::<RendererChoice>().unwrap_err();
        assert!(err.contains("auto, cpu or gpu"), "{err}");
        assert_eq!(RendererChoice::default(), RendererChoice::Auto);
    }
}
