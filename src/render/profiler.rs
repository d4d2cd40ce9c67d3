//! Where a frame's time goes: GPU timestamps around each render pass (where the adapter has
//! timestamp queries) and CPU time of each step of `SceneRenderer::render`. Used by
//! `mapscope bench`; off unless asked for, since reading the timestamps back waits for the
//! frame.

use std::time::Instant;

use anyhow::Result;

/// Time of one step of a frame, in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTime {
    pub name: &'static str,
    pub ms: f64,
}

/// One frame's breakdown.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameProfile {
    /// CPU work in `render`, in order.
    pub cpu: Vec<StepTime>,
    /// GPU passes, in order (empty where the adapter has no timestamp queries).
    pub gpu: Vec<StepTime>,
}

/// CPU steps of one frame, timed one after the other.
pub struct CpuSteps {
    last: Instant,
    steps: Vec<StepTime>,
}

impl CpuSteps {
    pub fn start() -> CpuSteps {
        CpuSteps { last: Instant::now(), steps: Vec::new() }
    }

    /// Ends step `name` (it began where the previous one ended).
    pub fn mark(&mut self, name: &'static str) {
        let now = Instant::now();
        self.steps.push(StepTime { name, ms: (now - self.last).as_secs_f64() * 1000.0 });
        self.last = now;
    }

    pub fn finish(self) -> Vec<StepTime> {
        self.steps
    }
}

/// Timestamp queries written at the start and end of each render pass of a frame.
pub struct PassTimer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    read: wgpu::Buffer,
    capacity: u32,
    names: Vec<&'static str>,
    period_ns: f64,
}

impl PassTimer {
    /// Room for `passes` passes a frame; `None` without timestamp queries.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, passes: u32) -> Option<PassTimer> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let capacity = passes * 2;
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: capacity,
        });
        let size = capacity as u64 * 8;
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let resolve =
            buffer("timestamps", wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
        let read = buffer(
            "timestamps read back",
            wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        );
        let period_ns = queue.get_timestamp_period() as f64;
        Some(PassTimer { queries, resolve, read, capacity, names: Vec::new(), period_ns })
    }

    pub fn begin_frame(&mut self) {
        self.names.clear();
    }

    /// Timestamp writes for the next pass, named `name`; `None` once the frame's room is used.
    pub fn pass(&mut self, name: &'static str) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        let at = self.names.len() as u32 * 2;
        if at + 2 > self.capacity {
            return None;
        }
        self.names.push(name);
        Some(wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(at),
            end_of_pass_write_index: Some(at + 1),
        })
    }

    /// Records the copy of this frame's timestamps for [`PassTimer::read`].
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        let used = self.names.len() as u32 * 2;
        if used == 0 {
            return;
        }
        encoder.resolve_query_set(&self.queries, 0..used, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.read, 0, used as u64 * 8);
    }

    /// The passes' times of the last frame (waits for it).
    pub fn read(&self, device: &wgpu::Device) -> Result<Vec<StepTime>> {
        let used = self.names.len() as u64 * 16;
        if used == 0 {
            return Ok(Vec::new());
        }
        let slice = self.read.slice(..used);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        device.poll(wgpu::PollType::wait_indefinitely())?;
        rx.recv()??;
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&slice.get_mapped_range()?);
        self.read.unmap();
        Ok(self
            .names
            .iter()
            .zip(ticks.chunks_exact(2))
            .map(|(&name, t)| StepTime {
                name,
                ms: t[1].saturating_sub(t[0]) as f64 * self.period_ns / 1e6,
            })
            .collect())
    }
}
