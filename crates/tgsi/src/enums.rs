//! The small enumerations of TGSI: processors, register files, semantics, texture targets,
//! return types, interpolation, memory types, immediate types, properties and primitives.
//!
//! Each is declared once with its Mesa number and its text spelling; the parser, printer and
//! token codec all go through the generated `from_number` / `number` / `name` / `from_name`.

/// Declares an enum whose variants carry a stable number and a text name.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident : $repr:ty {
            $( $(#[$vmeta:meta])* $variant:ident = $num:literal => $text:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* #[doc = concat!("`", $text, "` (", $num, ")")] $variant, )*
        }

        impl $name {
            /// Every variant, in numeric order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];

            /// The number Mesa uses for this value (token fields, enum tables).
            pub const fn number(self) -> $repr {
                match self { $( $name::$variant => $num, )* }
            }

            /// The value with this number, if there is one.
            pub const fn from_number(n: $repr) -> Option<Self> {
                match n { $( $num => Some($name::$variant), )* _ => None }
            }

            /// The upper-case text spelling.
            pub const fn name(self) -> &'static str {
                match self { $( $name::$variant => $text, )* }
            }

            /// Case-insensitive lookup of a text spelling.
            pub fn from_name(text: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name().eq_ignore_ascii_case(text))
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

named_enum! {
    /// Shader stage. Numbers are Mesa ≥ 22.3's `pipe_shader_type`.
    pub enum Processor: u32 {
        Vertex = 0 => "VERT",
        TessCtrl = 1 => "TESS_CTRL",
        TessEval = 2 => "TESS_EVAL",
        Geometry = 3 => "GEOM",
        Fragment = 4 => "FRAG",
        Compute = 5 => "COMP",
    }
}

named_enum! {
    /// Register file (Mesa ≥ 17.1 numbering).
    pub enum File: u32 {
        Null = 0 => "NULL",
        Constant = 1 => "CONST",
        Input = 2 => "IN",
        Output = 3 => "OUT",
        Temporary = 4 => "TEMP",
        Sampler = 5 => "SAMP",
        Address = 6 => "ADDR",
        Immediate = 7 => "IMM",
        SystemValue = 8 => "SV",
        Image = 9 => "IMAGE",
        SamplerView = 10 => "SVIEW",
        Buffer = 11 => "BUFFER",
        Memory = 12 => "MEMORY",
        ConstBuf = 13 => "CONSTBUF",
        HwAtomic = 14 => "HWATOMIC",
        /// The resource file of older spec versions (`DCL RES[#], target [, WR] [, RAW]`);
        /// not encodable in Mesa 22.3 tokens.
        Resource = 15 => "RES",
    }
}

impl File {
    /// Files of older spec versions that Mesa 22.3's token format cannot express.
    pub const fn is_legacy(self) -> bool {
        matches!(self, File::Resource)
    }
}

named_enum! {
    /// Declaration semantic name. 47 and 48 exist in Mesa's enum but have no text spelling;
    /// they are kept so token streams that use them round-trip (printed as numbers).
    pub enum Semantic: u32 {
        Position = 0 => "POSITION",
        Color = 1 => "COLOR",
        BColor = 2 => "BCOLOR",
        Fog = 3 => "FOG",
        PSize = 4 => "PSIZE",
        Generic = 5 => "GENERIC",
        Normal = 6 => "NORMAL",
        Face = 7 => "FACE",
        EdgeFlag = 8 => "EDGEFLAG",
        PrimId = 9 => "PRIM_ID",
        InstanceId = 10 => "INSTANCEID",
        VertexId = 11 => "VERTEXID",
        Stencil = 12 => "STENCIL",
        ClipDist = 13 => "CLIPDIST",
        ClipVertex = 14 => "CLIPVERTEX",
        GridSize = 15 => "GRID_SIZE",
        BlockId = 16 => "BLOCK_ID",
        BlockSize = 17 => "BLOCK_SIZE",
        ThreadId = 18 => "THREAD_ID",
        TexCoord = 19 => "TEXCOORD",
        PCoord = 20 => "PCOORD",
        ViewportIndex = 21 => "VIEWPORT_INDEX",
        Layer = 22 => "LAYER",
        SampleId = 23 => "SAMPLEID",
        SamplePos = 24 => "SAMPLEPOS",
        SampleMask = 25 => "SAMPLEMASK",
        InvocationId = 26 => "INVOCATIONID",
        VertexIdNoBase = 27 => "VERTEXID_NOBASE",
        BaseVertex = 28 => "BASEVERTEX",
        Patch = 29 => "PATCH",
        TessCoord = 30 => "TESSCOORD",
        TessOuter = 31 => "TESSOUTER",
        TessInner = 32 => "TESSINNER",
        VerticesIn = 33 => "VERTICESIN",
        HelperInvocation = 34 => "HELPER_INVOCATION",
        BaseInstance = 35 => "BASEINSTANCE",
        DrawId = 36 => "DRAWID",
        WorkDim = 37 => "WORK_DIM",
        SubgroupSize = 38 => "SUBGROUP_SIZE",
        SubgroupInvocation = 39 => "SUBGROUP_INVOCATION",
        SubgroupEqMask = 40 => "SUBGROUP_EQ_MASK",
        SubgroupGeMask = 41 => "SUBGROUP_GE_MASK",
        SubgroupGtMask = 42 => "SUBGROUP_GT_MASK",
        SubgroupLeMask = 43 => "SUBGROUP_LE_MASK",
        SubgroupLtMask = 44 => "SUBGROUP_LT_MASK",
        CsUserDataAmd = 45 => "CS_USER_DATA_AMD",
        ViewportMask = 46 => "VIEWPORT_MASK",
        TessDefaultOuterLevel = 47 => "47",
        TessDefaultInnerLevel = 48 => "48",
    }
}

impl Semantic {
    /// Whether the text form can name this semantic (47 and 48 cannot).
    pub const fn has_text_name(self) -> bool {
        !matches!(
            self,
            Semantic::TessDefaultOuterLevel | Semantic::TessDefaultInnerLevel
        )
    }

    /// Semantics whose tessellation registers are per patch rather than per vertex.
    pub const fn is_per_patch(self) -> bool {
        matches!(
            self,
            Semantic::Patch | Semantic::TessOuter | Semantic::TessInner | Semantic::PrimId
        )
    }
}

named_enum! {
    /// Texture target (`TGSI_TEXTURE_*`).
    pub enum TextureTarget: u32 {
        Buffer = 0 => "BUFFER",
        Tex1D = 1 => "1D",
        Tex2D = 2 => "2D",
        Tex3D = 3 => "3D",
        Cube = 4 => "CUBE",
        Rect = 5 => "RECT",
        Shadow1D = 6 => "SHADOW1D",
        Shadow2D = 7 => "SHADOW2D",
        ShadowRect = 8 => "SHADOWRECT",
        Array1D = 9 => "1D_ARRAY",
        Array2D = 10 => "2D_ARRAY",
        Shadow1DArray = 11 => "SHADOW1D_ARRAY",
        Shadow2DArray = 12 => "SHADOW2D_ARRAY",
        ShadowCube = 13 => "SHADOWCUBE",
        Msaa2D = 14 => "2D_MSAA",
        Msaa2DArray = 15 => "2D_ARRAY_MSAA",
        CubeArray = 16 => "CUBEARRAY",
        ShadowCubeArray = 17 => "SHADOWCUBEARRAY",
        Unknown = 18 => "UNKNOWN",
    }
}

impl TextureTarget {
    /// Whether the target compares against a depth reference.
    pub const fn is_shadow(self) -> bool {
        matches!(
            self,
            TextureTarget::Shadow1D
                | TextureTarget::Shadow2D
                | TextureTarget::ShadowRect
                | TextureTarget::Shadow1DArray
                | TextureTarget::Shadow2DArray
                | TextureTarget::ShadowCube
                | TextureTarget::ShadowCubeArray
        )
    }

    /// Whether the target is multisampled.
    pub const fn is_msaa(self) -> bool {
        matches!(self, TextureTarget::Msaa2D | TextureTarget::Msaa2DArray)
    }
}

named_enum! {
    /// Sampler-view return type. UNKNOWN (5) has no text spelling; it is what Mesa's text
    /// parser stores in every instruction texture token.
    pub enum ReturnType: u32 {
        Unorm = 0 => "UNORM",
        Snorm = 1 => "SNORM",
        Sint = 2 => "SINT",
        Uint = 3 => "UINT",
        Float = 4 => "FLOAT",
        Unknown = 5 => "UNKNOWN",
    }
}

named_enum! {
    /// Interpolation mode of a fragment-shader input.
    pub enum Interpolate: u32 {
        Constant = 0 => "CONSTANT",
        Linear = 1 => "LINEAR",
        Perspective = 2 => "PERSPECTIVE",
        Color = 3 => "COLOR",
    }
}

named_enum! {
    /// Where an input is interpolated inside the pixel.
    pub enum InterpLocation: u32 {
        Center = 0 => "CENTER",
        Centroid = 1 => "CENTROID",
        Sample = 2 => "SAMPLE",
    }
}

named_enum! {
    /// Address space of a `MEMORY` declaration.
    pub enum MemoryType: u32 {
        Global = 0 => "GLOBAL",
        Shared = 1 => "SHARED",
        Private = 2 => "PRIVATE",
        Input = 3 => "INPUT",
    }
}

named_enum! {
    /// Data type of an immediate.
    pub enum ImmType: u32 {
        Float32 = 0 => "FLT32",
        Uint32 = 1 => "UINT32",
        Int32 = 2 => "INT32",
        Float64 = 3 => "FLT64",
        Uint64 = 4 => "UINT64",
        Int64 = 5 => "INT64",
    }
}

impl ImmType {
    /// Whether each value takes two 32-bit words.
    pub const fn is_64bit(self) -> bool {
        matches!(self, ImmType::Float64 | ImmType::Uint64 | ImmType::Int64)
    }
}

named_enum! {
    /// Property identifiers.
    pub enum PropertyName: u32 {
        GsInputPrimitive = 0 => "GS_INPUT_PRIMITIVE",
        GsOutputPrimitive = 1 => "GS_OUTPUT_PRIMITIVE",
        GsMaxOutputVertices = 2 => "GS_MAX_OUTPUT_VERTICES",
        FsCoordOrigin = 3 => "FS_COORD_ORIGIN",
        FsCoordPixelCenter = 4 => "FS_COORD_PIXEL_CENTER",
        FsColor0WritesAllCbufs = 5 => "FS_COLOR0_WRITES_ALL_CBUFS",
        FsDepthLayout = 6 => "FS_DEPTH_LAYOUT",
        VsProhibitUcps = 7 => "VS_PROHIBIT_UCPS",
        GsInvocations = 8 => "GS_INVOCATIONS",
        VsWindowSpacePosition = 9 => "VS_WINDOW_SPACE_POSITION",
        TcsVerticesOut = 10 => "TCS_VERTICES_OUT",
        TesPrimMode = 11 => "TES_PRIM_MODE",
        TesSpacing = 12 => "TES_SPACING",
        TesVertexOrderCw = 13 => "TES_VERTEX_ORDER_CW",
        TesPointMode = 14 => "TES_POINT_MODE",
        NumClipdistEnabled = 15 => "NUM_CLIPDIST_ENABLED",
        NumCulldistEnabled = 16 => "NUM_CULLDIST_ENABLED",
        FsEarlyDepthStencil = 17 => "FS_EARLY_DEPTH_STENCIL",
        FsPostDepthCoverage = 18 => "FS_POST_DEPTH_COVERAGE",
        NextShader = 19 => "NEXT_SHADER",
        CsFixedBlockWidth = 20 => "CS_FIXED_BLOCK_WIDTH",
        CsFixedBlockHeight = 21 => "CS_FIXED_BLOCK_HEIGHT",
        CsFixedBlockDepth = 22 => "CS_FIXED_BLOCK_DEPTH",
        LegacyMathRules = 23 => "LEGACY_MATH_RULES",
        VsBlitSgprsAmd = 24 => "VS_BLIT_SGPRS_AMD",
        CsUserDataComponentsAmd = 25 => "CS_USER_DATA_COMPONENTS_AMD",
        LayerViewportRelative = 26 => "LAYER_VIEWPORT_RELATIVE",
        FsBlendEquationAdvanced = 27 => "FS_BLEND_EQUATION_ADVANCED",
        SeparableProgram = 28 => "SEPARABLE_PROGRAM",
    }
}

/// How a property's value is spelled in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropertyValueKind {
    /// A primitive name (`TRIANGLES`).
    Primitive,
    /// `UPPER_LEFT` / `LOWER_LEFT`.
    CoordOrigin,
    /// `HALF_INTEGER` / `INTEGER`.
    PixelCenter,
    /// A processor keyword (`FRAG`).
    Processor,
    /// A decimal number.
    Number,
}

impl PropertyName {
    /// The text form of this property's value.
    pub const fn value_kind(self) -> PropertyValueKind {
        match self {
            PropertyName::GsInputPrimitive | PropertyName::GsOutputPrimitive => {
                PropertyValueKind::Primitive
            }
            PropertyName::FsCoordOrigin => PropertyValueKind::CoordOrigin,
            PropertyName::FsCoordPixelCenter => PropertyValueKind::PixelCenter,
            PropertyName::NextShader => PropertyValueKind::Processor,
            _ => PropertyValueKind::Number,
        }
    }

    /// The stages this property is meaningful for (`None`: any stage).
    pub const fn stage(self) -> Option<&'static [Processor]> {
        use Processor::*;
        match self {
            PropertyName::GsInputPrimitive
            | PropertyName::GsOutputPrimitive
            | PropertyName::GsMaxOutputVertices
            | PropertyName::GsInvocations => Some(&[Geometry]),
            PropertyName::FsCoordOrigin
            | PropertyName::FsCoordPixelCenter
            | PropertyName::FsColor0WritesAllCbufs
            | PropertyName::FsDepthLayout
            | PropertyName::FsEarlyDepthStencil
            | PropertyName::FsPostDepthCoverage
            | PropertyName::FsBlendEquationAdvanced => Some(&[Fragment]),
            PropertyName::VsProhibitUcps => Some(&[Vertex, TessEval, Geometry]),
            PropertyName::VsWindowSpacePosition | PropertyName::VsBlitSgprsAmd => Some(&[Vertex]),
            PropertyName::TcsVerticesOut => Some(&[TessCtrl]),
            PropertyName::TesPrimMode
            | PropertyName::TesSpacing
            | PropertyName::TesVertexOrderCw
            | PropertyName::TesPointMode => Some(&[TessEval]),
            PropertyName::CsFixedBlockWidth
            | PropertyName::CsFixedBlockHeight
            | PropertyName::CsFixedBlockDepth
            | PropertyName::CsUserDataComponentsAmd => Some(&[Compute]),
            _ => None,
        }
    }
}

named_enum! {
    /// Gallium primitive types (values of the GS primitive properties).
    pub enum Primitive: u32 {
        Points = 0 => "POINTS",
        Lines = 1 => "LINES",
        LineLoop = 2 => "LINE_LOOP",
        LineStrip = 3 => "LINE_STRIP",
        Triangles = 4 => "TRIANGLES",
        TriangleStrip = 5 => "TRIANGLE_STRIP",
        TriangleFan = 6 => "TRIANGLE_FAN",
        Quads = 7 => "QUADS",
        QuadStrip = 8 => "QUAD_STRIP",
        Polygon = 9 => "POLYGON",
        LinesAdjacency = 10 => "LINES_ADJACENCY",
        LineStripAdjacency = 11 => "LINE_STRIP_ADJACENCY",
        TrianglesAdjacency = 12 => "TRIANGLES_ADJACENCY",
        TriangleStripAdjacency = 13 => "TRIANGLE_STRIP_ADJACENCY",
        Patches = 14 => "PATCHES",
    }
}

impl Primitive {
    /// Vertices of one input primitive: the implied size of a geometry shader's `IN[]`.
    pub const fn vertices(self) -> u32 {
        match self {
            Primitive::Points => 1,
            Primitive::Lines | Primitive::LineLoop | Primitive::LineStrip => 2,
            Primitive::Triangles | Primitive::TriangleStrip | Primitive::TriangleFan => 3,
            Primitive::LinesAdjacency | Primitive::LineStripAdjacency => 4,
            Primitive::TrianglesAdjacency | Primitive::TriangleStripAdjacency => 6,
            Primitive::Quads | Primitive::QuadStrip => 4,
            Primitive::Polygon | Primitive::Patches => 3,
        }
    }
}

named_enum! {
    /// `FS_COORD_ORIGIN` values.
    pub enum CoordOrigin: u32 {
        UpperLeft = 0 => "UPPER_LEFT",
        LowerLeft = 1 => "LOWER_LEFT",
    }
}

named_enum! {
    /// `FS_COORD_PIXEL_CENTER` values.
    pub enum PixelCenter: u32 {
        HalfInteger = 0 => "HALF_INTEGER",
        Integer = 1 => "INTEGER",
    }
}

named_enum! {
    /// Memory-access qualifier bits of LOAD/STORE/atomics (bit number = `number()`).
    pub enum MemoryQualifier: u32 {
        Coherent = 0 => "COHERENT",
        Restrict = 1 => "RESTRICT",
        Volatile = 2 => "VOLATILE",
        StreamCachePolicy = 3 => "STREAM_CACHE_POLICY",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_round_trip() {
        for &f in File::ALL {
            assert_eq!(File::from_number(f.number()), Some(f));
            assert_eq!(File::from_name(&f.name().to_lowercase()), Some(f));
        }
        assert_eq!(Semantic::ALL.len(), 49);
        assert_eq!(
            TextureTarget::from_name("cubearray"),
            Some(TextureTarget::CubeArray)
        );
        assert_eq!(Processor::Fragment.number(), 4);
        assert_eq!(Primitive::TrianglesAdjacency.vertices(), 6);
    }
}
