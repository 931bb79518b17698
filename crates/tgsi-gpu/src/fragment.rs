//! Fragment rendering on the GPU with the semantics of `tgsi_exec::render_fragment_with`: a
//! W×H RGBA32F target cleared to the clear colour, one full-screen triangle, `COLOR[color]`
//! written to it, read back with memory row 0 = top.
//!
//! The translated entry point is wrapped (see [`crate::wrap`]) so that POSITION follows
//! `FS_COORD_ORIGIN` and `FS_COORD_PIXEL_CENTER` exactly as in the interpreter (z = 0.5,
//! w = 1 from the triangle), and only the collected colour reaches the target. FACE is
//! front-facing. Every location input becomes a flat varying holding its constant from
//! [`RenderOptions::inputs`] (channels outside the declaration's usage mask 0), so its bits
//! arrive unchanged.

use std::borrow::Cow;

use naga::Module;
use tgsi::{Processor, Semantic};
use tgsi_exec::render::{MAX_PIXELS, MAX_SIZE};
use tgsi_exec::{Image, Program, RenderOptions};

use crate::bindings::{self, Bindings, Inputs};
use crate::device::Gpu;
use crate::error::{Error, Result};
use crate::vertex::{self, flat_inputs, Varying};
use crate::wrap::{self, Frame};

/// Bytes of one RGBA32F texel.
const TEXEL: u32 = 16;

/// A fragment shader ready to render: pipeline, bound resources, target and read-back
/// buffer. [`Renderer::render`] may be called repeatedly (for timing).
pub struct Renderer<'g> {
    gpu: &'g Gpu,
    pipeline: wgpu::RenderPipeline,
    bindings: Bindings,
    target: wgpu::Texture,
    readback: wgpu::Buffer,
    width: u32,
    height: u32,
    row_bytes: u32,
    clear: [f32; 4],
}

/// The location of the output collected as `COLOR[color]`, if the shader has one.
fn color_location(program: &Program, color: u32) -> Option<u32> {
    let has = |k| {
        program
            .outputs
            .iter()
            .any(|d| d.semantic == Semantic::Color && d.semantic_index == k)
    };
    if has(color) {
        Some(color)
    } else if program.color0_writes_all && has(0) {
        Some(0)
    } else {
        None
    }
}

impl<'g> Renderer<'g> {
    /// Translates `shader` (compiled for the interpreter as `program`) and prepares it.
    pub fn new(
        gpu: &'g Gpu,
        shader: &tgsi::Shader,
        program: &Program,
        opts: &RenderOptions,
    ) -> Result<Renderer<'g>> {
        if program.processor != Processor::Fragment {
            return Err(Error::Setup(format!(
                "render needs a fragment shader, not {}",
                program.processor
            )));
        }
        let (w, h) = (opts.width, opts.height);
        if w == 0
            || h == 0
            || w > MAX_SIZE
            || h > MAX_SIZE
            || u64::from(w) * u64::from(h) > MAX_PIXELS
        {
            return Err(Error::Setup(format!(
                "image size {w}x{h} outside 1..={MAX_SIZE} per side and {MAX_PIXELS} pixels"
            )));
        }
        let options = bindings::translation_options(gpu, &opts.resources, opts.budget);
        let mut module = tgsi_naga::translate_with(shader, &options)?;
        let varyings = flat_inputs(&mut module, program, opts)?;
        let frame = Frame {
            height: h,
            origin: program.origin,
            center: program.pixel_center,
            output: color_location(program, opts.color),
            location: 0,
        };
        wrap::wrap(&mut module, &frame)?;
        gpu.checked("creating the pipeline", || {
            let bindings = bindings::bind(
                gpu,
                &module,
                &Inputs::new(
                    shader,
                    &opts.constants,
                    &opts.resources,
                    wgpu::ShaderStages::FRAGMENT,
                    opts.budget,
                ),
            )?;
            let pipeline = pipeline(gpu, module, &varyings, &bindings);
            let target = gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some("colour"),
                size: wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: wgpu::TextureFormat::Rgba32Float,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            let row_bytes = (w * TEXEL).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
            let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("read-back"),
                size: u64::from(row_bytes) * u64::from(h),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            Ok(Renderer {
                gpu,
                pipeline,
                bindings,
                target,
                readback,
                width: w,
                height: h,
                row_bytes,
                clear: opts.clear,
            })
        })
    }

    /// Renders once and reads the image back; storage buffers the shader wrote are copied
    /// back into their resources.
    pub fn render(&self) -> Result<Image> {
        let gpu = self.gpu;
        let bytes = gpu.checked("rendering", || {
            let view = self.target.create_view(&Default::default());
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            {
                let c = self.clear.map(f64::from);
                let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: None,
                    color_attachments: &self.attachments(&view, c),
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                });
                pass.set_pipeline(&self.pipeline);
                for (i, g) in self.bindings.groups.iter().enumerate() {
                    if let Some(g) = g {
                        pass.set_bind_group(i as u32, g, &[]);
                    }
                }
                pass.draw(0..3, 0..1);
            }
            encoder.copy_texture_to_buffer(
                self.target.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: &self.readback,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(self.row_bytes),
                        rows_per_image: None,
                    },
                },
                self.target.size(),
            );
            gpu.queue.submit([encoder.finish()]);
            gpu.read_buffer(&self.readback, self.readback.size())
        })?;
        bindings::read_back(gpu, &self.bindings.written)?;
        Ok(self.image(&bytes))
    }

    /// The colour attachment at location 0, cleared.
    fn attachments<'v>(
        &self,
        view: &'v wgpu::TextureView,
        c: [f64; 4],
    ) -> [Option<wgpu::RenderPassColorAttachment<'v>>; 1] {
        [Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color {
                    r: c[0],
                    g: c[1],
                    b: c[2],
                    a: c[3],
                }),
                store: wgpu::StoreOp::Store,
            },
        })]
    }

    /// The image from the read-back rows.
    fn image(&self, bytes: &[u8]) -> Image {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut pixels = Vec::with_capacity(w * h);
        for m in 0..h {
            let start = m * self.row_bytes as usize;
            let line = bytes.get(start..start + w * TEXEL as usize).unwrap_or(&[]);
            pixels.extend(line.chunks_exact(TEXEL as usize).map(|t| {
                std::array::from_fn(|c| {
                    let b = [t[4 * c], t[4 * c + 1], t[4 * c + 2], t[4 * c + 3]];
                    f32::from_le_bytes(b)
                })
            }));
        }
        pixels.resize(w * h, self.clear);
        Image {
            width: self.width,
            height: self.height,
            pixels,
        }
    }
}

/// The render pipeline: the generated vertex shader, `module` as the fragment shader and one
/// RGBA32F target (no blending).
fn pipeline(
    gpu: &Gpu,
    module: Module,
    varyings: &[Varying],
    bindings: &Bindings,
) -> wgpu::RenderPipeline {
    let device = &gpu.device;
    let fs = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("fragment"),
        source: wgpu::ShaderSource::Naga(Cow::Owned(module)),
    });
    let vs = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("full-screen triangle"),
        source: wgpu::ShaderSource::Wgsl(Cow::Owned(vertex::source(varyings))),
    });
    let layouts: Vec<_> = bindings.layouts.iter().map(Option::as_ref).collect();
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    let targets = [Some(wgpu::ColorTargetState {
        format: wgpu::TextureFormat::Rgba32Float,
        blend: None,
        write_mask: wgpu::ColorWrites::ALL,
    })];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &vs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState {
            // (−1, −1), (3, −1), (−1, 3) is counter-clockwise by Vulkan's rule (front-facing).
            front_face: wgpu::FrontFace::Ccw,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fs,
            entry_point: Some(tgsi_naga::ENTRY_POINT),
            compilation_options: Default::default(),
            targets: &targets,
        }),
        multiview_mask: None,
        cache: None,
    })
}
