use anyhow::{anyhow, Context, Result};

/// The wgpu device the renderer draws with, windowed or headless.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// An instance honouring `WGPU_BACKEND` and friends from the environment.
    pub fn new_instance() -> wgpu::Instance {
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
    }

    /// A device for rendering without any window or display.
    pub fn headless() -> Result<Gpu> {
        Gpu::from_instance(Gpu::new_instance(), None)
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
            required_features: wgpu::Features::empty(),
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
