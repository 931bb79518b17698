//! The state shared by all rules: the shader, the limits, lookup tables built once from the
//! declarations, and the diagnostics collected so far.

use std::collections::{HashMap, HashSet};

use super::{Code, Diagnostic};
use crate::enums::{File, Processor};
use crate::ir::{Declaration, Shader, Span};
use crate::limits::Limits;

/// Most registers of one file entered into the per-index resource table (larger resource
/// ranges are still checked for being declared, but not for their target).
const RESOURCE_TABLE_BUDGET: usize = 1 << 16;

/// Files whose declarations name one resource per register, looked up by index for
/// target and flag checks.
const RESOURCE_FILES: [File; 5] = [
    File::Sampler,
    File::SamplerView,
    File::Image,
    File::Buffer,
    File::Memory,
];

/// Validator state.
pub(super) struct Ctx<'a> {
    /// The shader under check.
    pub shader: &'a Shader,
    /// The caps.
    pub limits: &'a Limits,
    /// Declared registers per (file, dimension): disjoint, sorted inclusive ranges.
    ranges: HashMap<(File, u32), Vec<(u32, u32)>>,
    /// Whether any register of a file (by number) is declared.
    declared_files: [bool; 16],
    /// The first declaration covering each register of a resource file.
    resources: HashMap<(File, u32), &'a Declaration>,
    /// Declarations with an ArrayID, per (file, id); the first one wins.
    arrays: HashMap<(File, u16), &'a Declaration>,
    /// Keys of diagnostics reported at most once per shader.
    once: HashSet<(Code, String)>,
    diags: Vec<Diagnostic>,
}

impl<'a> Ctx<'a> {
    /// Builds the lookup tables.
    pub fn new(shader: &'a Shader, limits: &'a Limits) -> Ctx<'a> {
        let mut raw: HashMap<(File, u32), Vec<(u32, u32)>> = HashMap::new();
        let mut resources = HashMap::new();
        let mut arrays = HashMap::new();
        let mut budget = RESOURCE_TABLE_BUDGET;
        let mut declared_files = [false; 16];
        for decl in &shader.declarations {
            if decl.first > decl.last {
                continue;
            }
            if let Some(slot) = declared_files.get_mut(decl.file.number() as usize) {
                *slot = true;
            }
            let dim = Self::decl_dimension(shader.processor, decl);
            raw.entry((decl.file, dim))
                .or_default()
                .push((decl.first, decl.last));
            if let Some(id) = decl.array_id.filter(|&id| id != 0) {
                arrays.entry((decl.file, id)).or_insert(decl);
            }
            if RESOURCE_FILES.contains(&decl.file) {
                let mut index = decl.first;
                while budget > 0 {
                    resources.entry((decl.file, index)).or_insert(decl);
                    budget -= 1;
                    if index == decl.last {
                        break;
                    }
                    index += 1;
                }
            }
        }
        let ranges = raw
            .into_iter()
            .map(|(key, mut list)| {
                list.sort_unstable();
                let mut merged: Vec<(u32, u32)> = Vec::with_capacity(list.len());
                for (first, last) in list {
                    match merged.last_mut() {
                        Some(prev) if first <= prev.1.saturating_add(1) => {
                            prev.1 = prev.1.max(last)
                        }
                        _ => merged.push((first, last)),
                    }
                }
                (key, merged)
            })
            .collect();
        Ctx {
            shader,
            limits,
            ranges,
            declared_files,
            resources,
            arrays,
            once: HashSet::new(),
            diags: Vec::new(),
        }
    }

    /// The dimension a declaration occupies for lookups: per-vertex files are 1-D.
    fn decl_dimension(processor: Processor, decl: &Declaration) -> u32 {
        if is_per_vertex(processor, decl.file) {
            0
        } else {
            decl.dimension.unwrap_or(0)
        }
    }

    /// Whether register `index` of `file` in dimension `dim` is declared.
    pub fn is_declared(&self, file: File, dim: u32, index: u32) -> bool {
        let Some(list) = self.ranges.get(&(file, dim)) else {
            return false;
        };
        let pos = list.partition_point(|&(first, _)| first <= index);
        pos > 0 && list[pos - 1].1 >= index
    }

    /// Whether any register of `file` is declared.
    pub fn file_declared(&self, file: File) -> bool {
        self.declared_files
            .get(file.number() as usize)
            .copied()
            .unwrap_or(false)
    }

    /// The declaration of a sampler, sampler view, image, buffer or memory register.
    pub fn resource(&self, file: File, index: u32) -> Option<&'a Declaration> {
        self.resources.get(&(file, index)).copied()
    }

    /// The declaration carrying ArrayID `id` in `file`.
    pub fn array(&self, file: File, id: u16) -> Option<&'a Declaration> {
        self.arrays.get(&(file, id)).copied()
    }

    /// Whether `file` is indexed per vertex in this stage (GS/TES inputs, TCS inputs and
    /// outputs): the outer index of `IN[v][i]` is a vertex, not a declared dimension.
    pub fn per_vertex(&self, file: File) -> bool {
        is_per_vertex(self.shader.processor, file)
    }

    /// Records a diagnostic.
    pub fn report(&mut self, code: Code, span: Span, message: impl Into<String>) {
        if self.limits.allow_legacy && matches!(code, Code::LegacyOpcode | Code::LegacyFile) {
            return;
        }
        self.diags.push(Diagnostic::new(code, span, message));
    }

    /// Records a diagnostic unless one with the same code and key was already recorded.
    pub fn report_once(&mut self, code: Code, key: &str, span: Span, message: impl Into<String>) {
        if self.once.insert((code, key.to_string())) {
            self.report(code, span, message);
        }
    }

    /// The diagnostics collected.
    pub fn finish(self) -> Vec<Diagnostic> {
        self.diags
    }
}

/// See [`Ctx::per_vertex`].
pub(super) fn is_per_vertex(processor: Processor, file: File) -> bool {
    match processor {
        Processor::Geometry | Processor::TessEval => file == File::Input,
        Processor::TessCtrl => matches!(file, File::Input | File::Output),
        _ => false,
    }
}
