//! The wgpu instance, adapter, device and queue: the system's own backend (Vulkan on Linux,
//! Metal on macOS, DX12 or Vulkan on Windows) unless `WGPU_BACKEND` says otherwise, OpenGL as
//! the headless fallback; a software rasteriser (lavapipe) is a first-class target.

use anyhow::{anyhow, Context, Result};

/// The wgpu device the renderer draws with, windowed or headless.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// An instance on the primary backends compiled for this target (Cargo.toml's target
    /// tables: Vulkan on Linux, Metal on macOS, DX12 and Vulkan on Windows) unless
    /// `WGPU_BACKEND` says otherwise (probing GL as well only adds noise where they work).
    pub fn new_instance() -> wgpu::Instance {
        Gpu::instance_for(wgpu::Backends::PRIMARY)
    }

    fn instance_for(default: wgpu::Backends) -> wgpu::Instance {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = default;
        wgpu::Instance::new(desc.with_env())
    }

    /// A device for rendering without any window or display: the primary backend, else
    /// OpenGL.
    pub fn headless() -> Result<Gpu> {
        Gpu::from_instance(Gpu::new_instance(), None)
            .or_else(|_| Gpu::from_instance(Gpu::instance_for(wgpu::Backends::GL), None))
    }

    /// A device able to present to `surface` (created from `instance`), if given.
    pub fn from_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: surface,
            ..Default::default()
        }))
        .map_err(|e| {
            anyhow!(
                "no graphics adapter found ({e}); install a Vulkan driver \
                 (Debian: mesa-vulkan-drivers) or set WGPU_BACKEND"
            )
        })?;
        let info = adapter.get_info();
        log::info!("adapter: {} ({:?}, {})", info.name, info.backend, info.driver);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("mapscope"),
            // Timestamps let `mapscope bench` time each pass; nothing else needs a feature.
            required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .context("creating the graphics device")?;
        Ok(Gpu { instance, adapter, device, queue })
    }

    pub fn adapter_name(&self) -> String {
        let i = self.adapter.get_info();
        format!("{} ({:?})", i.name, i.backend)
    }
}
