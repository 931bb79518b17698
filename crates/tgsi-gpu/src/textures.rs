//! Sampler views, samplers and images (bind group 1 and the image half of group 2).

use naga::TypeInner;

use crate::bindings::{Inputs, Slot};
use crate::device::Gpu;
use crate::error::{Error, Result};

/// The binding of a texture, sampler or image variable.
pub(crate) fn slot(_gpu: &Gpu, binding: u32, inner: &TypeInner, _inputs: &Inputs) -> Result<Slot> {
    Err(Error::Unsupported(format!(
        "binding {binding} ({inner:?}): textures, samplers and images"
    )))
}
