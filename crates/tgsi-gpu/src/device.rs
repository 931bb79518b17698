//! The device: one Vulkan adapter opened through wgpu (headless), with the optional features
//! TGSI shaders may need (doubles, 64-bit integers, float filtering), plus the helpers every
//! run uses: error capture and buffer read-back.

use crate::error::{Error, Result};

/// Features requested when the adapter has them.
fn wanted_features() -> wgpu::Features {
    wgpu::Features::SHADER_F64
        | wgpu::Features::SHADER_INT64
        | wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX
        | wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS
        | wgpu::Features::FLOAT32_FILTERABLE
        | wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES
        | wgpu::Features::TEXTURE_FORMAT_16BIT_NORM
        | wgpu::Features::PRIMITIVE_INDEX
        | wgpu::Features::ADDRESS_MODE_CLAMP_TO_BORDER
}

/// An open GPU device and its queue.
pub struct Gpu {
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    name: String,
}

impl Gpu {
    /// Opens the first Vulkan adapter (`WGPU_ADAPTER_NAME` and the other wgpu environment
    /// variables apply), or [`Error::NoAdapter`].
    pub fn new() -> Result<Gpu> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::VULKAN,
            flags: wgpu::InstanceFlags::empty().with_env(),
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        };
        let adapter = pollster::block_on(instance.request_adapter(&options))
            .map_err(|e| Error::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let descriptor = wgpu::DeviceDescriptor {
            label: Some("tgsi"),
            required_features: adapter.features() & wanted_features(),
            required_limits: adapter.limits(),
            ..Default::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
            .map_err(|e| Error::Device(format!("{}: {e}", info.name)))?;
        // Errors are collected through error scopes; anything outside one is only logged.
        device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| {
            eprintln!("wgpu: {e}");
        }));
        Ok(Gpu {
            device,
            queue,
            name: format!("{} ({:?}, {})", info.name, info.backend, info.driver_info),
        })
    }

    /// The adapter's name, backend and driver.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs `f`, turning any validation, memory or internal error it causes into
    /// [`Error::Device`].
    pub(crate) fn checked<T>(&self, what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let scopes = [
            wgpu::ErrorFilter::Validation,
            wgpu::ErrorFilter::OutOfMemory,
            wgpu::ErrorFilter::Internal,
        ]
        .map(|filter| self.device.push_error_scope(filter));
        let value = f();
        let mut error = None;
        for scope in scopes.into_iter().rev() {
            if let Some(e) = pollster::block_on(scope.pop()) {
                error.get_or_insert(e);
            }
        }
        match error {
            Some(e) => Err(Error::Device(format!("{what}: {e}"))),
            None => value,
        }
    }

    /// Waits until the queue is idle.
    pub(crate) fn wait(&self) -> Result<()> {
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: None,
            })
            .map(|_| ())
            .map_err(|e| Error::Device(format!("waiting for the GPU: {e}")))
    }

    /// A buffer with `bytes` (padded with zeros to a multiple of 4, at least 4 bytes).
    pub(crate) fn buffer_with(&self, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        let size = (bytes.len().max(4).next_multiple_of(4)) as u64;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut padded = bytes.to_vec();
        padded.resize(size as usize, 0);
        self.queue.write_buffer(&buffer, 0, &padded);
        buffer
    }

    /// Reads back the first `len` bytes of a `MAP_READ` buffer after all submitted work.
    pub(crate) fn read_buffer(&self, buffer: &wgpu::Buffer, len: u64) -> Result<Vec<u8>> {
        let slice = buffer.slice(..len);
        let (send, receive) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            // The receiver waits below; a closed channel only means it gave up.
            let _ = send.send(r);
        });
        self.wait()?;
        receive
            .recv()
            .map_err(|_| Error::Device("buffer mapping never finished".into()))?
            .map_err(|e| Error::Device(format!("mapping a buffer: {e}")))?;
        let bytes = slice
            .get_mapped_range()
            .map_err(|e| Error::Device(format!("mapping a buffer: {e}")))?
            .to_vec();
        buffer.unmap();
        Ok(bytes)
    }
}
