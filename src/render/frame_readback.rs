//! Frames read back to the CPU every frame, into a buffer kept between frames: what a window
//! shown without the swapchain needs (`app/soft_window.rs`). On a software adapter the
//! swapchain's own present copies each image through the X socket (lavapipe's
//! `xcb_put_image`); reading the image back and handing it to the window system through
//! shared memory costs a fraction of that.

use anyhow::{anyhow, Result};

use super::Gpu;

pub struct FrameReadback {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
    /// Bytes a row in `buffer` (rows are padded to wgpu's copy alignment).
    padded_row: u32,
}

impl FrameReadback {
    /// A read-back of `width` x `height` frames of 4 bytes a pixel.
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> FrameReadback {
        let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let padded_row = (width * 4).div_ceil(align) * align;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame read-back"),
            size: (padded_row * height.max(1)) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        FrameReadback { buffer, width, height, padded_row }
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Records the copy of `texture` (this read-back's size, 4 bytes a pixel).
    pub fn copy(&self, encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture) {
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
    }

    /// Waits for the submitted copy and hands each row of pixels (little-endian u32 words, as
    /// the texture holds them) to `row`.
    pub fn read(&self, gpu: &Gpu, mut row: impl FnMut(usize, &[u32])) -> Result<()> {
        let slice = self.buffer.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
        rx.recv().map_err(|_| anyhow!("the read-back was dropped"))??;
        {
            let data = slice.get_mapped_range()?;
            let words: &[u32] = bytemuck::cast_slice(&data);
            let stride = (self.padded_row / 4) as usize;
            for y in 0..self.height as usize {
                row(y, &words[y * stride..y * stride + self.width as usize]);
            }
        }
        self.buffer.unmap();
        Ok(())
    }
}
