#!/usr/bin/env python3
"""Writes the hostile inputs of this directory: hand-designed TGSI text (`t_*.tgsi`) and
token streams (`b_*.bin`, little-endian u32 words). Rerun after editing; the expected
outcome of each file is in MANIFEST.tsv (checked by ../hostile.rs)."""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# ----- text ---------------------------------------------------------------------------------

F = "FRAG\nDCL IN[0], COLOR, COLOR\nDCL OUT[0], COLOR\nDCL TEMP[0..3]\n"

GS = "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE POINTS\nPROPERTY GS_MAX_OUTPUT_VERTICES 3\n"

TEXT = {
    # indices
    "t_index_negative_dst": F + "  0: MOV TEMP[-1], IN[0]\n  1: END\n",
    "t_index_negative_src": F + "  0: MOV TEMP[0], IN[-5]\n  1: END\n",
    "t_index_overflow_u32": F + "  0: MOV TEMP[4294967296], IN[0]\n  1: END\n",
    "t_index_above_limit": F + "  0: MOV TEMP[32768], IN[0]\n  1: END\n",
    "t_index_at_limit": F + "  0: MOV TEMP[32767], IN[0]\n  1: END\n",
    "t_dcl_range_u32max": "FRAG\nDCL TEMP[0..4294967295]\n",
    "t_dcl_range_65535": "FRAG\nDCL TEMP[0..65535]\n  0: END\n",
    "t_dcl_range_reversed": "FRAG\nDCL TEMP[5..2]\n",
    "t_dcl_range_open": "FRAG\nDCL TEMP[0..]\n",
    "t_dim_2d_past_bounds": F + "  0: MOV TEMP[0], CONST[99999][0]\n  1: END\n",
    "t_dim_2d_negative": F + "  0: MOV TEMP[0], CONST[-1][0]\n  1: END\n",
    "t_indirect_offset_past_bounds": F + "  0: MOV TEMP[0], TEMP[ADDR[0].x+40000]\n  1: END\n",
    "t_indirect_offset_min": F + "  0: MOV TEMP[0], TEMP[ADDR[0].x-32768]\n  1: END\n",
    "t_indirect_addr_index_huge": F + "  0: MOV TEMP[0], TEMP[ADDR[70000].x]\n  1: END\n",
    "t_indirect_bad_component": F + "  0: MOV TEMP[0], TEMP[ADDR[0].q]\n  1: END\n",
    "t_indirect_2d_both": F + "  0: MOV TEMP[0], CONST[ADDR[0].x+1][ADDR[0].y-1]\n  1: END\n",
    "t_indirect_array_id_big": F + "  0: MOV TEMP[0], TEMP[ADDR[0].x](5000)\n  1: END\n",
    "t_indirect_nested": F + "  0: MOV TEMP[0], TEMP[TEMP[ADDR[0].x].x]\n  1: END\n",
    # files
    "t_undeclared_registers": "FRAG\n  0: MOV OUT[7], IN[3]\n  1: END\n",
    "t_unknown_file_operand": F + "  0: MOV FOO[0], IN[0]\n  1: END\n",
    "t_unknown_file_dcl": "FRAG\nDCL BOGUS[0]\n",
    "t_removed_file_pred": "FRAG\nDCL PRED[0]\n",
    "t_file_prefix_word": "FRAG\nDCL TEMPX[0]\n",
    # swizzles and masks
    "t_swizzle_3_letters": F + "  0: MOV TEMP[0], IN[0].xyz\n  1: END\n",
    "t_swizzle_5_letters": F + "  0: MOV TEMP[0], IN[0].xyzwx\n  1: END\n",
    "t_swizzle_xq": F + "  0: MOV TEMP[0], IN[0].xq\n  1: END\n",
    "t_swizzle_empty": F + "  0: MOV TEMP[0], IN[0].\n  1: END\n",
    "t_writemask_yx": F + "  0: MOV TEMP[0].yx, IN[0]\n  1: END\n",
    "t_writemask_xx": F + "  0: MOV TEMP[0].xx, IN[0]\n  1: END\n",
    "t_writemask_bad_letter": F + "  0: MOV TEMP[0].r, IN[0]\n  1: END\n",
    # control flow and labels
    "t_unbalanced_endif": F + "  0: ENDIF\n  1: ENDLOOP\n  2: END\n",
    "t_unbalanced_if": F + "  0: IF TEMP[0].xxxx :2\n  1: BGNLOOP :2\n  2: END\n",
    "t_label_past_end_24bit": F + "  0: IF TEMP[0].xxxx :99999999\n  1: ENDIF\n  2: END\n",
    "t_label_past_end_fits": F + "  0: IF TEMP[0].xxxx :16777215\n  1: ENDIF\n  2: END\n",
    "t_label_overflow_u32": F + "  0: IF TEMP[0].xxxx :4294967296\n  1: ENDIF\n  2: END\n",
    "t_label_missing_number": F + "  0: IF TEMP[0].xxxx :\n  1: ENDIF\n  2: END\n",
    "t_instruction_label_garbage": F + "  0: 1: MOV TEMP[0], IN[0]\n",
    "t_missing_end": F + "  0: MOV OUT[0], IN[0]\n",
    # structure
    "t_empty": "",
    "t_whitespace_only": "  \n\t\n",
    "t_header_only": "FRAG",
    "t_header_unknown": "PIXEL\nEND\n",
    "t_header_glued": "FRAGEND\n",
    "t_statements_glued": "FRAG\nDCL TEMP[0]DCL TEMP[1]\n",
    "t_comment": "FRAG\n; a comment\n  0: END\n",
    "t_eof_mid_operand": F + "  0: MOV TEMP[0],",
    "t_eof_mid_bracket": F + "  0: MOV TEMP[0",
    "t_unclosed_abs": F + "  0: MOV TEMP[0], |IN[0]\n  1: END\n",
    "t_unknown_opcode": F + "  0: FROB TEMP[0], IN[0]\n  1: END\n",
    "t_unknown_suffix": F + "  0: MOV_SATX TEMP[0], IN[0]\n  1: END\n",
    "t_too_few_operands": F + "  0: MAD TEMP[0], IN[0], IN[0]\n  1: END\n",
    "t_too_many_operands": F + "  0: MOV TEMP[0], IN[0], IN[0]\n  1: END\n",
    "t_dcl_after_instructions": "FRAG\n  0: MOV TEMP[1], TEMP[0]\nDCL TEMP[0..1]\n  1: END\n",
    "t_property_after_instructions": "FRAG\n  0: END\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\n",
    # bytes
    "t_nul_byte": F + "  0: MOV TEMP[0],\0 IN[0]\n  1: END\n",
    "t_nul_after_header": "FRAG\0\nEND\n",
    "t_crlf": "FRAG\r\nDCL TEMP[0]\r\n  0: END\r\n",
    "t_cr_only": "FRAG\rEND\r",
    "t_non_ascii_letter": F + "  0: MOV TEMP[0], \u00cdN[0]\n  1: END\n",
    "t_unicode_whitespace": F + "  0: MOV\u00a0TEMP[0], IN[0]\n  1: END\n",
    # texture
    "t_texture_target_invalid": F + "DCL SAMP[0]\n  0: TEX TEMP[0], IN[0], SAMP[0], 9D\n  1: END\n",
    "t_texture_target_missing": F + "DCL SAMP[0]\n  0: TEX TEMP[0], IN[0], SAMP[0]\n  1: END\n",
    "t_texture_5_offsets": F + "DCL SAMP[0]\nIMM[0] INT32 {0, 0, 0, 0}\n  0: TEX TEMP[0], IN[0], SAMP[0], 2D, IMM[0].xyz, IMM[0].xyz, IMM[0].xyz, IMM[0].xyz, IMM[0].xyz\n  1: END\n",
    "t_sview_target_invalid": "FRAG\nDCL SVIEW[0], 7D, FLOAT\n",
    "t_sview_return_type_invalid": "FRAG\nDCL SVIEW[0], 2D, DOUBLE\n",
    "t_sview_return_type_unknown": "FRAG\nDCL SVIEW[0], 2D, UNKNOWN\n",
    "t_semantic_unknown": "FRAG\nDCL IN[0], BOGUS\n",
    "t_semantic_index_overflow": "FRAG\nDCL IN[0], GENERIC[4294967296]\n",
    "t_stream_out_of_range": "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nDCL OUT[0], POSITION, STREAM(0, 0, 0, 9)\n  0: END\n",
    "t_gs_input_without_primitive": "GEOM\nDCL IN[][0], POSITION\n",
    "t_array_id_negative": "FRAG\nDCL TEMP[0..3], ARRAY(-1)\n",
    # immediates
    "t_imm_out_of_order": "FRAG\nIMM[1] FLT32 {1.0, 2.0, 3.0, 4.0}\n",
    "t_imm_index_huge": "FRAG\nIMM[4294967295] FLT32 {1.0, 2.0, 3.0, 4.0}\n",
    "t_imm_too_many_values": "FRAG\nIMM FLT32 {1.0, 2.0, 3.0, 4.0, 5.0}\n",
    "t_imm_too_few_values": "FRAG\nIMM FLT32 {1.0, 2.0, 3.0}\n",
    "t_imm_short_hex": "FRAG\nIMM FLT32 {0x3f80, 0, 0, 0}\n",
    "t_imm_uint_negative": "FRAG\nIMM UINT32 {-1, 0, 0, 0}\n",
    "t_imm_uint_overflow": "FRAG\nIMM UINT32 {4294967296, 0, 0, 0}\n",
    "t_imm_unknown_type": "FRAG\nIMM FLT16 {1, 2, 3, 4}\n",
    "t_imm_inf_nan": "FRAG\nIMM FLT32 {inf, -inf, nan, -nan}\n",
    "t_imm_float_overflow": "FRAG\nIMM FLT32 {1e39, -1e39, 1e-50, 0}\n",
    "t_imm_int64_overflow": "FRAG\nIMM INT64 {99999999999999999999999, -99999999999999999999999}\n",
    "t_number_300_digits": F + "  0: MOV TEMP[" + "9" * 300 + "], IN[0]\n  1: END\n",
    "t_float_300_digits": "FRAG\nIMM FLT32 {" + "1" * 300 + ".0, 0, 0, 0}\n",
    # properties
    "t_property_unknown": "FRAG\nPROPERTY FOO_BAR 1\n",
    "t_property_bad_value": "GEOM\nPROPERTY GS_INPUT_PRIMITIVE HEXAGONS\n",
    "t_property_negative": "GEOM\nPROPERTY GS_INVOCATIONS -1\n",
    "t_property_negative_overflow": "GEOM\nPROPERTY GS_INVOCATIONS -2147483649\n",
    # validator: structure (`tgsi check` verdicts)
    "t_second_end": F + "  0: MOV OUT[0], IN[0]\n  1: END\n  2: MOV OUT[0], TEMP[0]\n  3: END\n",
    "t_end_inside_if": F + "  0: IF IN[0].xxxx :2\n  1: END\n  2: ENDIF\n",
    "t_temp_declared_twice": "FRAG\nDCL TEMP[0..3]\nDCL TEMP[0..3]\n  0: END\n",
    "t_array_overlap": "FRAG\nDCL TEMP[0..3], ARRAY(1)\nDCL TEMP[2..5], ARRAY(2)\n  0: END\n",
    "t_out_overlap": "VERT\nDCL OUT[0..2], GENERIC[0]\nDCL OUT[1], GENERIC[7]\n  0: END\n",
    "t_gs_input_repeated": GS + "DCL IN[][0], POSITION\nDCL IN[][0], POSITION\nDCL OUT[0], POSITION\n"
    + "IMM[0] INT32 {0, 0, 0, 0}\n  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].xxxx\n  2: END\n",
    "t_dcl_range_65536": "FRAG\nDCL TEMP[0..65536]\n  0: END\n",
    "t_nesting_300": F + "".join("BGNLOOP\n" for _ in range(300)) + "".join("ENDLOOP\n" for _ in range(300)) + "END\n",
    # validator: token field widths
    "t_dcl_array_id_11_bits": "FRAG\nDCL TEMP[0..3], ARRAY(1024)\n  0: END\n",
    "t_dcl_array_id_17_bits": "FRAG\nDCL TEMP[0..3], ARRAY(65536)\n  0: END\n",
    "t_semantic_index_17_bits": "FRAG\nDCL IN[0], GENERIC[65536], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n",
    # validator: Gallium limits (p_state.h)
    "t_inputs_81": "FRAG\nDCL IN[80], GENERIC[0], PERSPECTIVE\n  0: END\n",
    "t_vs_inputs_33": "VERT\nDCL IN[0..32]\n  0: END\n",
    "t_outputs_81": "VERT\nDCL OUT[0], POSITION\nDCL OUT[80], GENERIC[0]\n  0: END\n",
    "t_samp_32": "FRAG\nDCL SAMP[32]\n  0: END\n",
    "t_sview_128": "FRAG\nDCL SVIEW[128], 2D, FLOAT\n  0: END\n",
    "t_image_64": "COMP\nDCL IMAGE[64], 2D, PIPE_FORMAT_R32_UINT, WR\n  0: END\n",
    "t_buffer_32": "COMP\nDCL BUFFER[32]\n  0: END\n",
    "t_const_buffer_32": "FRAG\nDCL CONST[32][0..3]\n  0: END\n",
    "t_hwatomic_buffer_32": "COMP\nDCL HWATOMIC[32][0], ARRAY(1)\n  0: END\n",
    "t_clipdist_3": "VERT\nDCL OUT[0], POSITION\nDCL OUT[1..2], ARRAY(1), CLIPDIST\nDCL OUT[3], CLIPDIST[2]\n  0: END\n",
    "t_clip_cull_9": "VERT\nPROPERTY NUM_CLIPDIST_ENABLED 5\nPROPERTY NUM_CULLDIST_ENABLED 4\n  0: END\n",
    "t_emit_stream_4": GS + "DCL IN[][0], POSITION\nDCL OUT[0], POSITION\nIMM[0] INT32 {0, 4, 0, 0}\n"
    + "  0: MOV OUT[0], IN[0][0]\n  1: EMIT IMM[0].xxxx\n  2: ENDPRIM IMM[0].yyyy\n  3: END\n",
    "t_gs_max_vertices_1025": GS.replace("VERTICES 3", "VERTICES 1025") + "  0: END\n",
    "t_gs_invocations_33": GS + "PROPERTY GS_INVOCATIONS 33\n  0: END\n",
    "t_tcs_vertices_out_33": "TESS_CTRL\nPROPERTY TCS_VERTICES_OUT 33\n  0: END\n",
    "t_cs_block_2048": "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 64\nPROPERTY CS_FIXED_BLOCK_HEIGHT 32\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n",
    "t_cs_block_overflow": "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 65536\nPROPERTY CS_FIXED_BLOCK_HEIGHT 65536\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n",
    "t_cs_block_1024": "COMP\nPROPERTY CS_FIXED_BLOCK_WIDTH 32\nPROPERTY CS_FIXED_BLOCK_HEIGHT 32\nPROPERTY CS_FIXED_BLOCK_DEPTH 1\n  0: END\n",
    # validator: addressing
    "t_indirect_through_temp": F + "  0: MOV TEMP[0], TEMP[TEMP[1].x]\n  1: END\n",
    "t_indirect_base_outside_array": "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..3], ARRAY(1)\nDCL ADDR[0]\n"
    + "  0: UARL ADDR[0].x, IN[0].xxxx\n  1: MOV OUT[0], TEMP[ADDR[0].x+7](1)\n  2: END\n",
    # validator: calls
    "t_recursion_direct": F + "  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :2\n  4:   RET\n  5: ENDSUB\n",
    "t_recursion_mutual": F + "  0: CAL :2\n  1: END\n  2: BGNSUB\n  3:   CAL :6\n  4:   RET\n  5: ENDSUB\n"
    + "  6: BGNSUB\n  7:   CAL :2\n  8:   RET\n  9: ENDSUB\n",
}

# Not valid UTF-8: a front end must reject (or lossily convert) these bytes first.
RAW_TEXT = {
    "t_invalid_utf8": F.encode() + b"  0: MOV TEMP[0], IN[0]\xff\xfe\n  1: END\n",
    "t_invalid_utf8_header": b"\xc3\x28FRAG\n",
}

# ----- tokens -------------------------------------------------------------------------------

DCL_IN = [0x006F2040, 0x00000000, 0x00000001, 0x00000001]  # DCL IN[0], COLOR, LINEAR
DCL_OUT = [0x002F3030, 0x00000000, 0x00000001]  # DCL OUT[0], COLOR
DCL_TEMP = [0x000F4020, 0x00000000]  # DCL TEMP[0]
IMM0 = [0x00000051, 0x3F000000, 0x3F800000, 0, 0]  # IMM[0] FLT32 {0.5, 1, 0, 0}
MOV = [0x00A01022, 0x000000F3, 0x39000002]  # MOV OUT[0], IN[0]
END = [0x00075002]
FRAG = 4


def shader(*groups, processor=FRAG, body=None, header_size=2):
    words = [w for g in groups for w in g]
    n = len(words) if body is None else body
    return [header_size | n << 8, processor] + words


def with_field(word, shift, width, value):
    mask = ((1 << width) - 1) << shift
    return (word & ~mask) | ((value << shift) & mask)


BASE = (DCL_IN, DCL_OUT, DCL_TEMP, IMM0, MOV, END)

# TEX TEMP[0], IN[0], SAMP[0], 2D (texture word: target 2, return type 5 unknown)
TEX = [0x11234042, 0x00005002, 0x000000F4, 0x39000002, 0x39000005]
# DCL SVIEW[0], 2D, FLOAT
DCL_SVIEW = [0x000FA030, 0, 0x10410402]
# DCL IMAGE[0], 2D, PIPE_FORMAT_R8G8B8A8_UNORM (53)
DCL_IMAGE = [0x000F9030, 0, 2 | 53 << 10]
# LOAD TEMP[0], BUFFER[0], IMM[0].xxxx (memory word: target BUFFER)
LOAD = [0x212A1042, 0x00000000, 0x000008F4, 0x3900000B, 0x00000007]
# UIF TEMP[0].xxxx :label
UIF = [0x0884B022, 0x00000015, 0x00000004]
# PROPERTY FS_COORD_ORIGIN UPPER_LEFT
PROP = [0x00003023, 0]
# EMIT with no source (pre-2017 geometry shaders)
EMIT0 = [0x00061002]


def lcg_words(n, seed):
    out, x = [], seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out.append(x)
    return out


BIN = {
    "b_base": shader(*BASE),
    "b_header_only": shader(),
    "b_valid_resources": shader(DCL_SVIEW, DCL_IMAGE, DCL_TEMP, TEX, LOAD, END),
    "b_empty": [],
    "b_one_word": [0x00000002],
    "b_header_size_3": shader(*BASE, header_size=3),
    "b_header_size_0": shader(*BASE, header_size=0),
    "b_bodysize_larger": shader(*BASE, body=19),
    "b_bodysize_smaller": shader(*BASE, body=17),
    "b_bodysize_max": shader(*BASE, body=0xFFFFFF),
    "b_bodysize_cuts_group": shader(DCL_IN, DCL_OUT, body=5)[:7],
    "b_trailing_word": shader(*BASE) + [0],
    "b_processor_9": shader(*BASE, processor=9),
    "b_processor_high_bits": shader(*BASE, processor=0xFFFFFFF4),
    "b_token_type_5": shader(DCL_TEMP, [0x00075005]),
    "b_token_type_15": shader(DCL_TEMP, [0xFFFFFFFF]),
    "b_opcode_252": shader(DCL_TEMP, [with_field(END[0], 12, 8, 252)]),
    "b_opcode_255": shader(DCL_TEMP, [with_field(END[0], 12, 8, 255)]),
    "b_mov_numsrc_2": shader(DCL_OUT, [with_field(MOV[0], 23, 4, 2)] + MOV[1:], END),
    "b_mov_numsrc_15": shader(DCL_OUT, [with_field(MOV[0], 23, 4, 15)] + MOV[1:], END),
    "b_mov_numdst_3": shader(DCL_OUT, [with_field(MOV[0], 21, 2, 3)] + MOV[1:], END),
    "b_decl_nrtokens_5": shader([with_field(DCL_TEMP[0], 4, 8, 5)] + DCL_TEMP[1:], END),
    "b_decl_nrtokens_0": shader([with_field(DCL_TEMP[0], 4, 8, 0)] + DCL_TEMP[1:], END),
    "b_decl_nrtokens_255": shader([with_field(DCL_TEMP[0], 4, 8, 255)] + DCL_TEMP[1:], END),
    "b_inst_nrtokens_7": shader(DCL_OUT, [with_field(MOV[0], 4, 8, 7)] + MOV[1:], END),
    "b_end_nrtokens_255": shader([with_field(END[0], 4, 8, 255)]),
    "b_imm_nrtokens_3": shader([with_field(IMM0[0], 4, 14, 3)] + IMM0[1:]),
    "b_imm_nrtokens_max": shader([with_field(IMM0[0], 4, 14, 0x3FFF)] + IMM0[1:]),
    "b_imm_type_7": shader([with_field(IMM0[0], 18, 4, 7)] + IMM0[1:]),
    "b_property_name_200": shader([with_field(PROP[0], 12, 8, 200)] + PROP[1:]),
    "b_property_nrtokens_3": shader([with_field(PROP[0], 4, 8, 3)] + PROP[1:] + [0]),
    "b_semantic_200": shader(DCL_IN[:3] + [200]),
    "b_file_15_decl": shader([with_field(DCL_TEMP[0], 12, 4, 15)] + DCL_TEMP[1:]),
    "b_file_15_operand": shader(DCL_OUT, MOV[:2] + [with_field(MOV[2], 0, 4, 15)], END),
    "b_interp_mode_15": shader(DCL_IN[:2] + [15] + DCL_IN[3:]),
    "b_interp_location_3": shader(DCL_IN[:2] + [3 << 4 | 1] + DCL_IN[3:]),
    "b_texture_target_200": shader([TEX[0], with_field(TEX[1], 0, 8, 200)] + TEX[2:], END),
    "b_texture_return_type_7": shader([TEX[0], with_field(TEX[1], 12, 3, 7)] + TEX[2:], END),
    "b_texture_num_offsets_15": shader([TEX[0], with_field(TEX[1], 8, 4, 15)] + TEX[2:], END),
    "b_sview_return_type_7": shader(DCL_SVIEW[:2] + [with_field(DCL_SVIEW[2], 8, 6, 7)]),
    "b_sview_target_200": shader(DCL_SVIEW[:2] + [with_field(DCL_SVIEW[2], 0, 8, 200)]),
    "b_image_format_1000": shader(DCL_IMAGE[:2] + [with_field(DCL_IMAGE[2], 10, 10, 1000)]),
    "b_memory_target_200": shader([LOAD[0], with_field(LOAD[1], 4, 8, 200)] + LOAD[2:], END),
    "b_range_reversed": shader([DCL_TEMP[0], 5 | 2 << 16]),
    "b_range_full_u16": shader([DCL_TEMP[0], 0xFFFF << 16], END),
    "b_second_end": shader(END, END),
    # GEOM: IMM[0] INT32 {4, 0, 0, 0}; EMIT IMM[0].xxxx; END
    "b_emit_stream_4": shader([0x00080051, 4, 0, 0, 0], [0x00861012, 0x00000007], END, processor=3),
    "b_dimension_3d": shader(DCL_OUT, [0x00A01032, 0x000000F3, 0x39000022, 0x00050002], END),
    "b_indirect_reads_next_group": shader(DCL_OUT, MOV[:2] + [MOV[2] | 1 << 4], END),
    "b_indirect_at_stream_end": shader(DCL_OUT, MOV[:2] + [MOV[2] | 1 << 4]),
    "b_dst_index_negative": shader(DCL_OUT, [MOV[0], with_field(MOV[1], 10, 16, 0xFFFF), MOV[2]], END),
    "b_label_max": shader(DCL_TEMP, [UIF[0], 0xFFFFFF, UIF[2]], END),
    "b_emit_without_stream": shader(EMIT0, END, processor=3),
    "b_garbage": shader(*[lcg_words(40, 1)]),
    "b_garbage_after_valid": shader(DCL_TEMP, lcg_words(20, 7)),
    "b_all_ff": [0xFFFFFFFF] * 64,
    "b_all_zero": [0] * 16,
}

RAW_BIN = {
    # 7 bytes: not a whole number of words.
    "b_odd_length": bytes([2, 0, 0, 0, 4, 0, 0]),
}


def main():
    for name, text in TEXT.items():
        with open(os.path.join(HERE, name + ".tgsi"), "wb") as f:
            f.write(text.encode("utf-8"))
    for name, data in RAW_TEXT.items():
        with open(os.path.join(HERE, name + ".tgsi"), "wb") as f:
            f.write(data)
    for name, words in BIN.items():
        with open(os.path.join(HERE, name + ".bin"), "wb") as f:
            f.write(struct.pack("<%dI" % len(words), *words))
    for name, data in RAW_BIN.items():
        with open(os.path.join(HERE, name + ".bin"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
