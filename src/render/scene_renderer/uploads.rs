//! What moves between the CPU and the GPU each frame: the animation state, a canvas's colours
//! and depths, the targets sized to the view, and the image read back.

use super::*;

impl SceneRenderer {
    /// Writes the animation state into the state buffer and, when `depths` (the GPU draws
    /// over the canvas), the canvas depths after the state and its colours into the scene's
    /// colour target; otherwise both stay on the CPU (4 bytes a pixel copied twice each for
    /// nothing), the colours until the GPU's image is asked for.
    pub(super) fn upload_state(&mut self, gpu: &Gpu, depths: bool) {
        let canvas = self.family.canvas();
        let depths = canvas.as_ref().filter(|_| depths).map(|c| c.depths).unwrap_or(&[]);
        // The palette indices only for translucent surfaces to blend with, after the depths.
        let keys = canvas.as_ref().filter(|_| self.gpu_translucent() && !depths.is_empty());
        let keys = keys.map(|c| c.keys).unwrap_or(&[]);
        let size = ((self.state_words.len() + depths.len() + keys.len().div_ceil(4)) * 4) as u64;
        if size > self.state.size() {
            self.state = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("frame state"),
                size,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.bind_group = None;
        }
        gpu.queue.write_buffer(&self.state, 0, bytemuck::cast_slice(&self.state_words));
        // Nothing drawn over the canvas: its colours wait for `upload_image`.
        let Some(t) = &self.targets else { return };
        if depths.len() != (t.width * t.height) as usize {
            return;
        }
        let at = (self.state_words.len() * 4) as u64;
        gpu.queue.write_buffer(&self.state, at, bytemuck::cast_slice(depths));
        // Four indices a word; the copy must be whole words.
        let at = at + depths.len() as u64 * 4;
        let whole = keys.len() / 4 * 4;
        gpu.queue.write_buffer(&self.state, at, &keys[..whole]);
        if whole < keys.len() {
            let mut tail = [0u8; 4];
            tail[..keys.len() - whole].copy_from_slice(&keys[whole..]);
            gpu.queue.write_buffer(&self.state, at + whole as u64, &tail);
        }
        self.write_canvas_colors(gpu);
    }

    /// Writes the last canvas frame's colours into the colour target if they are not there.
    pub(super) fn upload_image(&self, gpu: &Gpu) {
        if self.image_pending.replace(false) {
            self.write_canvas_colors(gpu);
        }
    }

    pub(super) fn write_canvas_colors(&self, gpu: &Gpu) {
        let (Some(canvas), Some(t)) = (self.family.canvas(), &self.targets) else { return };
        if canvas.colors.len() != (t.width * t.height) as usize {
            return;
        }
        gpu.queue.write_texture(
            t.color.as_image_copy(),
            bytemuck::cast_slice(canvas.colors),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(t.width * 4),
                rows_per_image: Some(t.height),
            },
            wgpu::Extent3d { width: t.width, height: t.height, depth_or_array_layers: 1 },
        );
    }

    pub(super) fn ensure_targets(&mut self, gpu: &Gpu, w: u32, h: u32) {
        if self.targets.as_ref().is_some_and(|t| t.width == w && t.height == h) {
            return;
        }
        let make = |format, usage, label| {
            gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = make(
            self.format,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene colour",
        );
        let depth = make(
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene depth",
        );
        // Only the translucent pass reads the keys: without it, a scene pass writes no key
        // target (16 bytes a pixel cleared, written and stored each frame).
        let keys = self.translucent.is_some().then(|| {
            make(
                KEY_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
                "pixel keys",
            )
        });
        self.targets = Some(Targets {
            keys_view: keys.map(|k| k.create_view(&Default::default())),
            width: w,
            height: h,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
        });
    }

    pub(super) fn make_bind_group(&self, device: &wgpu::Device) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> =
            [&self.uniform, &self.meta, &self.texels, &self.state, &self.sprites]
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene"),
            layout: &self.layout,
            entries: &entries,
        })
    }
}

/// Copies a texture to the CPU as an RGBA image.
pub(super) fn read_texture(
    gpu: &Gpu,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> Result<image::RgbaImage> {
    let row = width * 4;
    let padded =
        row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read back"),
        size: (padded * height) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    gpu.queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
    rx.recv()??;
    let data = slice.get_mapped_range()?;
    let mut pixels = Vec::with_capacity((row * height) as usize);
    for y in 0..height as usize {
        let start = y * padded as usize;
        pixels.extend_from_slice(&data[start..start + row as usize]);
    }
    drop(data);
    buffer.unmap();
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| anyhow::anyhow!("read-back size mismatch"))
}
