// Broadcasting cases from the upstream suites the golden vectors come from (see
// tests/fixtures/golden.json) that golden.json does not hold: NumPy, OpenVINO, ONNX,
// TensorFlow, MindSpore, torch. Numbers only; each row names its source test.
// Row: [call, args, expected, test]. Calls: 'np' broadcastShapes(...args); 'none' and
// 'pdpd' autoBroadcastShape(A, B, { type, axis }); 'to' broadcastToShape(input, target);
// 'bi' mode bidirectional; 'ex' mode explicit (args[2] = axesMapping); 'pop' mode pdpd
// (args[2] = axis); 'data' broadcastTo on data (args[3] = axesMapping, explicit);
// 'add' add() on data. Expected: the shape, '[...]', an error code, or the data; a
// 'data' row with null data reads 1, 2, 3, ... and expects the index-mapped reference.
// A "contract" comment marks a row where docs/broadcast-rules.md decides differently
// from the source system; the row holds tensorcast's documented answer.
import { describe, it, expect, beforeAll } from 'vitest';
import * as tc from '../../dist/node.js';

beforeAll(async () => { await tc.init(); });

const CASES = [
  // numpy/numpy:numpy/lib/tests/test_stride_tricks.py
    ['np', [[3],[3]], [3], 'test_same_input_shapes'],
    ['np', [[0,1],[0,1]], [0,1], 'test_same_input_shapes'],
    ['np', [[1,0],[1,0]], [1,0], 'test_same_input_shapes'],
    ['np', [[1,0],[1,0],[1,0]], [1,0], 'test_same_input_shapes'],
    ['np', [[3,0],[3,0]], [3,0], 'test_same_input_shapes'],
    ['np', [[1,3],[1,3]], [1,3], 'test_same_input_shapes'],
    ['np', [[3,3],[3,3]], [3,3], 'test_same_input_shapes'],
    ['np', [[3,3],[3,3],[3,3]], [3,3], 'test_same_input_shapes'],
    ['np', [[3],[1]], [3], 'test_two_compatible_by_ones_input_shapes (reversed)'],
    ['np', [[1,3],[3,3]], [3,3], 'test_two_compatible_by_ones_input_shapes'],
    ['np', [[1,3],[3,1]], [3,3], 'test_two_compatible_by_ones_input_shapes'],
    ['np', [[1,1],[3,3]], [3,3], 'test_two_compatible_by_ones_input_shapes'],
    ['np', [[1,3],[1,1]], [1,3], 'test_two_compatible_by_ones_input_shapes (reversed)'],
    ['np', [[3,1],[1,1]], [3,1], 'test_two_compatible_by_ones_input_shapes (reversed)'],
    ['np', [[0,0],[1,1]], [0,0], 'test_two_compatible_by_ones_input_shapes (reversed)'],
    ['np', [[3],[3,3]], [3,3], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[3,3],[3]], [3,3], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[3,1],[3]], [3,3], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[1],[3,3]], [3,3], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[1],[3,1]], [3,1], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[3,1],[1]], [3,1], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[1],[1,3]], [1,3], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[],[1,3]], [1,3], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[1,3],[]], [1,3], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[],[3,1]], [3,1], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[3,1],[]], [3,1], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[0],[]], [0], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[0,1],[0]], [0,0], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[0,0],[1]], [0,0], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[],[0,0]], [0,0], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[1,0],[1]], [1,0], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[],[0,1]], [0,1], 'test_two_compatible_by_prepending_ones_input_shapes'],
    ['np', [[0,1],[]], [0,1], 'test_two_compatible_by_prepending_ones_input_shapes (reversed)'],
    ['np', [[4],[3]], 'INCOMPATIBLE_DIMS', 'test_incompatible_shapes_raise_valueerror (reversed)'],
    ['np', [[2],[2,3]], 'INCOMPATIBLE_DIMS', 'test_incompatible_shapes_raise_valueerror (reversed)'],
    ['np', [[3],[3],[4]], 'INCOMPATIBLE_DIMS', 'test_incompatible_shapes_raise_valueerror'],
    ['np', [[1,3,4],[2,3,3]], 'INCOMPATIBLE_DIMS', 'test_incompatible_shapes_raise_valueerror'],
    ['np', [[2,3,3],[1,3,4]], 'INCOMPATIBLE_DIMS', 'test_incompatible_shapes_raise_valueerror (reversed)'],
    ['bi', [[1],[3]], [3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3],[1]], [3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,3],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[1,3]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[3,1],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[3,1]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,3],[3,1]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,1],[1,3]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[1,1]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[1,3]], [1,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,3],[1,1]], [1,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[3,1]], [3,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,1],[1,1]], [3,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,0],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[1,0]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[0,1],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[0,1]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,0],[0,1]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,1],[1,0]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[1,1]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[1,0]], [1,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,0],[1,1]], [1,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[0,1]], [0,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,1],[1,1]], [0,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[3]], [3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3],[]], [3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[3],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[3]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[3],[3,1]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,1],[3]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['np', [[3],[1,3]], [1,3], 'test_same_as_ufunc transposed'],
    ['bi', [[1],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[1]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[3,3]], [3,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,3],[]], [3,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[3]], [1,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3],[1,1]], [1,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1],[3,1]], [3,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,1],[1]], [3,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1],[1,3]], [1,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,3],[1]], [1,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[1,3]], [1,3], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,3],[]], [1,3], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[3,1]], [3,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[3,1],[]], [3,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[0]], [0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0],[]], [0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[0],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[0]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[0],[0,1]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,1],[0]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['np', [[0],[1,0]], [1,0], 'test_same_as_ufunc transposed'],
    ['bi', [[1],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[1]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[0,0]], [0,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,0],[]], [0,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1,1],[0]], [1,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0],[1,1]], [1,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1],[0,1]], [0,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,1],[1]], [0,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[1],[1,0]], [1,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,0],[1]], [1,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[1,0]], [1,0], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[1,0],[]], [1,0], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['bi', [[],[0,1]], [0,1], 'test_same_as_ufunc (x0+x1 as bidirectional)'],
    ['bi', [[0,1],[]], [0,1], 'test_same_as_ufunc (reversed, bidirectional)'],
    ['to', [[1],[1,2,3]], [1,2,3], 'test_broadcast_to_succeeds'],
    ['to', [[3],[2,3]], [2,3], 'test_broadcast_to_succeeds'],
    ['to', [[3],[2]], 'INCOMPATIBLE_DIMS', 'test_broadcast_to_raises'],
    ['to', [[1,2],[2,1]], 'INCOMPATIBLE_DIMS', 'test_broadcast_to_raises'],
    ['to', [[1,2],[-1,2]], [1,2], 'test_broadcast_to_raises'], // contract: NumPy refuses a negative target dim; tensorcast reads -1 as "keep the input dim" (section 4.1 -> section 5)
    ['np', [[1,1],[3,4]], [3,4], 'test_broadcast_shape'],
    ['np', [[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[]], [2], 'test_broadcast_shape gh-5862'],
    ['np', [[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3],[3]], 'INCOMPATIBLE_DIMS', 'test_broadcast_shape gh-5862'],
    ['np', [[1,2],[2]], [1,2], 'test_broadcast_shapes_succeeds'],
    ['np', [[6,7],[5,6,1],[7],[5,1,7]], [5,6,7], 'test_broadcast_shapes_succeeds'],
    ['np', [[5,6,1]], [5,6,1], 'test_broadcast_shapes_succeeds'],
    ['np', [[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2],[2]], [2], 'test_broadcast_shapes_succeeds gh-5862'],
  // openvinotoolkit/openvino:src/core/tests/type_prop/broadcast.cpp
    ['ex', [[3,1],[2,3,1],[1,2]], [2,3,1], 'broadcast_axes_mapping'],
    ['ex', [[16],[1,16,50,50],[1]], [1,16,50,50], 'broadcast_target_shape_as_concat_with_constants'],
    ['ex', [[16],["?",16,50,50],[1]], ["?",16,50,50], 'broadcast_target_shape_as_concat_with_node'],
    ['ex', [[3,1],[2,3,1],[1,2,3]], 'INVALID_AXES_MAPPING', 'broadcast_fail_rank'],
    ['ex', [[3,1],[2,1,3],[2,1]], 'INVALID_AXES_MAPPING', 'broadcast_fail_transpose'],
    ['ex', [[2],["?","?","?","?"],[1]], ["?","?","?","?"], 'broadcast_dynamic_values_of_target_shape'],
    ['ex', ["[...]","[...]",[0,1,2]], "[...]", 'broadcast_explicit_all_inputs_dynamic'],
    ['ex', ["[...]",[1,2,3],[0,2,1]], 'INVALID_AXES_MAPPING', 'broadcast_explicit_const_target_shape (non-increasing mapping)'], // contract: OpenVINO gives [1,2,3]; section 4.2 refuses a non-increasing mapping without needing ranks
    ['ex', [["?","?","?"],[1,1,5,10],[0,2,1,3]], 'INVALID_AXES_MAPPING', 'broadcast_explicit_const_target_shape_static_rank_input'],
    ['ex', [[4],[1,4,2,3],[1]], [1,4,2,3], 'broadcast_explicit_static_input_shape_const_target_shape'],
    ['to', ["[...]","[...]"], "[...]", 'broadcast_numpy_input_shape_dynamic'],
    ['to', ["[...]",[1,2,3]], [1,2,3], 'broadcast_numpy_target_shape_constant'],
    ['to', [["?","?"],[1,2,3]], [1,2,3], 'broadcast_numpy_target_shape_constant'],
    ['to', [["?","?","?"],"[...]"], "[...]", 'broadcast_numpy_target_shape_dynamic'],
    ['to', [[3,4,5,6],"[...]"], "[...]", 'broadcast_numpy_target_shape_dynamic'],
    ['to', [[1,2,3],"[...]"], "[...]", 'broadcast_numpy_input_static_shape'],
    ['to', [[1,2,3],[3,2,3]], [3,2,3], 'broadcast_numpy_input_static_shape'],
    ['to', [[2,3,"?"],[1,2,3,4]], [1,2,3,4], 'broadcast_numpy_input_partially_dynamic'],
    ['to', [["?",3,"?"],[1,2,3,4]], [1,2,3,4], 'broadcast_numpy_input_partially_dynamic'],
    ['to', [["?",999,3,4],[1,2,3,4]], 'INCOMPATIBLE_DIMS', 'broadcast_numpy_static_dims_incorrect'],
    ['bi', [[1,4,1],[1,4]], [1,4,4], 'broadcast_v3_shape*'],
    ['bi', [[16,1,1],[1,1,50,50]], [1,16,50,50], 'broadcast_v3_shape*'],
    ['bi', ["[...]","[...]"], "[...]", 'broadcast_v3_output_rank_not_deduced'],
    ['bi', [["?","?","?","?"],"[...]"], "[...]", 'broadcast_v3_bidirectional_static_rank_input'],
    ['bi', [[1,2,3,1],"[...]"], "[...]", 'broadcast_v3_bidirectional_static_shape_input'],
    ['bi', [[1,2,3,1],[2,2,3,2]], [2,2,3,2], 'broadcast_v3_bidirectional_static_shape_input'],
    ['bi', [[1,2,3,1],[5,2,3,7]], [5,2,3,7], 'broadcast_v3_bidirectional_static_shape_input'],
    ['bi', [["?",1,"?"],[1,1,50,50]], [1,"?",50,50], 'broadcast_v3_bidirectional_partially_dynamic_input'],
    ['bi', [[16,"?","?"],[1,1,50,50]], [1,16,50,50], 'broadcast_v3_bidirectional_partially_dynamic_input'],
    ['bi', [[5,"?"],[5,"?"]], [5,"?"], 'broadcast_i32_shape_value'],
    ['to', [[5,"?"],[5,"?"]], [5,"?"], 'broadcast_i32_shape_value (numpy)'],
    ['bi', [["?",2,1,"4..8","?","4..8","?","1..8","1..10","4..18"],["?",2,"3..9",1,"3..9","?","1..9","?","3..19","1..10"]], ["?",2,"3..9","4..8","3..9","4..8","?","?","3..19","4..18"], 'broadcast_v3_symbols_*_dynamic_mixed_dims_bidirectional'],
    ['bi', [["4..8",1],["?","?","?"]], ["?","4..8","?"], 'broadcast_v3_in0_interval_in1_param_rank_bigger_bidirectional'],
    ['bi', [["?",2,"1..10","4..8",1],["?","?","?"]], ["?",2,"?","4..8","?"], 'broadcast_v3_in0_interval_in1_param_rank_smaller_bidirectional'],
    ['bi', [["?",2,1,"4..8","1..10"],["?","?","?","?","?"]], ["?",2,"?","4..8","?"], 'broadcast_v3_symbols_in0_dims_in1_param_bidirectional'],
    ['to', [[1,1],[2,3]], [2,3], 'broadcast_v3_eval_symbols_static_dims_numpy'],
    ['to', [[1,3],[2,3]], [2,3], 'broadcast_v3_eval_symbols_static_dims_numpy'],
    ['bi', [["0..10",1,4],["0..10",1,4]], ["..10",1,4], 'broadcast_v3_bidirectional_tricky_partial_value_case'],
    ['bi', [[1],[0]], [0], 'broadcast_v3_bidirectional_zero_dim'],
  // openvinotoolkit/openvino:src/plugins/intel_cpu/tests/unit/shape_inference_test/broadcast_shape_inference.cpp
    ['bi', [[16,1,1],[1,16,50,50]], [1,16,50,50], 'BroadcastBidirectionalTest'],
  // openvinotoolkit/openvino:src/core/tests/type_prop/arithmetic_ops.hpp
    ['np', [[2,3,4,5],[1]], [2,3,4,5], 'ArithmeticOperator shape_inference_*'],
    ['none', [[2,2],[2,2]], [2,2], 'no_autobroadcast'],
    ['pdpd', [[2,3,4,5],[3,4],1], [2,3,4,5], 'shape_inference_pdpd_doc_examples / 4D_x_4D_equal_pdpd'],
    ['pdpd', [[2,3,4,5],[3,1],1], [2,3,4,5], 'shape_inference_pdpd_doc_examples / 4D_x_4D_equal_pdpd'],
    ['pdpd', [[2,3,4,5],[],-1], [2,3,4,5], 'shape_inference_pdpd_doc_examples / 4D_x_4D_equal_pdpd'],
    ['np', [[3,5,6],[4,10,12]], 'INCOMPATIBLE_DIMS', 'shape_inference_*_incompatible'],
    ['np', [[389,112,12],[389,112,19]], 'INCOMPATIBLE_DIMS', 'shape_inference_*_incompatible'],
    ['np', [["?","?",6],["?","?",6]], ["?","?",6], 'dynamic_shape_3D'],
    ['np', [["?",4,"?","?",6],["?",4,"?","?",6]], ["?",4,"?","?",6], 'dynamic_shape_5D'],
    ['none', [["1..3","2..7","6..","0..6","?",8],["1..3","2..7","6..","0..6","?",8]], ["1..3","2..7","6..","..6","?",8], 'dynamic_shape_intervals_broadcast_none'],
    ['np', [["1..3","1..3","1..3","4..8","?",1,"?",1,3],["1..3","2..7","?",1,"1..3","4..8","?",1,3]], ["1..3","2..7","?","4..8","?","4..8","?",1,3], 'dynamic_shape_intervals_broadcast_numpy equal rank'],
    ['np', [["1..3","2..7","1..3","4..8","?",1,"?",1,3],["?",1,"1..3","4..8","?",1,3]], ["1..3","2..7","?","4..8","?","4..8","?",1,3], 'dynamic_shape_intervals_broadcast_numpy B smaller'],
    ['pdpd', [["?","?"],["1..3","2..7"],0], ["?","?"], 'dynamic_shape_intervals_broadcast_pdpd A dynamic'],
    ['pdpd', [["1..3","2..7"],["?","?"],0], ["1..3","2..7"], 'dynamic_shape_intervals_broadcast_pdpd B dynamic'],
    ['np', [["2..4",3,"?",224],[1,3,128,1]], ["2..4",3,128,224], 'labels_mixed_numpy (shapes only)'],
    ['np', [["?",3,1,1],["2..4",3,"2..128","1..224"]], ["2..4",3,"2..128","1..224"], 'labels_mixed_numpy (shapes only)'],
    ['np', [["?",3,224,1],["2..4",3,1,224]], ["2..4",3,224,224], 'labels_mixed_numpy (shapes only)'],
    ['np', [["2..4",3,224,1],["?",3,1,224]], ["2..4",3,224,224], 'labels_mixed_numpy (shapes only)'],
    ['np', [["?",3,224,1],["?",3,1,224]], ["?",3,224,224], 'labels_mixed_numpy (shapes only)'],
    ['np', [["?",3,224,224],[1,3,1,1]], ["?",3,224,224], 'labels_a_numpy (shapes only)'],
    ['np', [[1,3,1,1],["?",3,224,224]], ["?",3,224,224], 'labels_b_numpy (shapes only)'],
    ['np', [["?","?","?","?"],[3,1,1]], ["?",3,"?","?"], 'labels_different_rank_numpy (shapes only)'],
    ['np', [[2,1,224,1],[2,1,1,128]], [2,1,224,128], 'static_shape_labels_numpy (shapes only)'],
    ['pdpd', [[2,3,4,1],[2,3,4,5],-1], 'INCOMPATIBLE_DIMS', 'shape_inference_dst_smaller_than_src_pdpd_broadcast'],
    ['pdpd', ["[...]","[...]",-1], "[...]", 'fully_dynamic_shape_broadcast_pdpd'],
    ['pdpd', [["1..3","1..3","1..3","4..8","?",1,"?",1,3],["1..3","2..7","?",1,"1..3","4..8","?",1,3],0], 'INCOMPATIBLE_DIMS', 'dynamic_shape_intervals_broadcast_pdpd (A rank smaller, axis 0)'], // contract: OpenVINO merges both ways and returns (1..3,2..7,?,4..8,?,4..8,?,1,3); section 3.4/3.5: B never widens A, and B 4..8 against A static 1 is refused
    ['np', [["2..4","4..12","10..12","16..24"],["2..4","8..16","8..16","8..16"]], ["2..4","8..12","10..12",16], 'symbols_*_interval_dims_without_one_broadcast_numpy (reversed)'],
    ['np', [[3,1,1],["?","?","?","?"]], ["?",3,"?","?"], 'symbols_dyn_batch_and_higher_rank_b_broadcast_numpy'],
    ['pdpd', [[2,3,4,5],[3,1,5],1], [2,3,4,5], 'static_shape_pdpd_doc_examples'],
  // openvinotoolkit/openvino:src/plugins/intel_cpu/tests/unit/shape_inference_test/binary_elementwise_arithmetic.cpp
    ['np', [[3,4,1,5],[4,6,1]], [3,4,6,5], 'shape_inference_autob_numpy_a_rank_higher'],
    ['np', [[3,4,6,5],[2,4,6,5]], 'INCOMPATIBLE_DIMS', 'shape_inference_autob_numpy_incompatible_shapes'],
    ['none', [[3,4,6,5],[3,1,6,1]], 'SHAPE_MISMATCH', 'shape_inference_aubtob_none_incompatible_shapes'],
  // openvinotoolkit/openvino:src/core/tests/type_prop/binary_elementwise.cpp
    ['np', [[2,4],[4,2]], 'INCOMPATIBLE_DIMS', 'add_bad_arguments'],
    ['np', [[2,4],[2,4]], [2,4], 'add_bad_arguments (good)'],
    ['np', [[1,3,6],[3,1]], [1,3,6], 'eltwise_auto_bcast'],
    ['np', [[1,3,6],[2,3,6]], [2,3,6], 'eltwise_auto_bcast'],
    ['np', [[6],[2,3,6]], [2,3,6], 'eltwise_auto_bcast'],
    ['np', [[2,3,6],[]], [2,3,6], 'eltwise_auto_bcast'],
    ['np', [[1,"?",6],[3,1]], [1,3,6], 'eltwise_auto_bcast'],
    ['none', [[2,"3..5","?","0..5","6.."],[2,"3..4",8,"2..5",10]], [2,"3..4",8,"2..5",10], 'propagate_dynamic_partial_shape_no_broadcast'],
    ['np', [[2,"3..5","?","0..5","6.."],[2,"3..4",8]], [2,"3..5",2,"3..4",8], 'propagate_dynamic_partial_shape_numpy_broadcast'],
    ['none', ["[...]","[...]"], "[...]", 'propagate_dynamic_rank_shape_no_broadcast'],
    ['np', [[3,4,"1..5","?"],"[...]"], "[...]", 'propagate_one_input_is_dynamic_rank_shape'],
    ['np', ["[...]",[3,4,"1..5","?"]], "[...]", 'propagate_one_input_is_dynamic_rank_shape'],
    ['none', [[2,4,5,"?","4..5","0..6"],[2,4,5,5,"?","4.."]], [2,4,5,5,"4..5","4..6"], 'propagate_labels_from_both_inputs_no_broadcast (shapes)'],
    ['none', [[2,4,5,5,"?","4.."],[2,4,5,"?","4..5","0..6"]], [2,4,5,5,"4..5","4..6"], 'propagate_labels_from_both_inputs_no_broadcast (shapes)'],
    ['np', [[2,"2..4","?","4..5","0..6",1],[2,"4..",5,"4.."]], [2,"2..4",2,"4..5",5,"4.."], 'propagate_labels_from_both_inputs_numpy_broadcast (shapes)'],
    ['np', [[2,"4..",5,"4.."],[2,"2..4","?","4..5","0..6",1]], [2,"2..4",2,"4..5",5,"4.."], 'propagate_labels_from_both_inputs_numpy_broadcast (shapes)'],
    ['np', [[2,5,"?","0..5","6.."],[2,4,8]], [2,5,2,4,8], 'use_default_ctor'],
    ['np', [[1,2,"?"],[1,2,3]], [1,2,3], 'left_rank_static_dynamic_right_static'],
    ['np', [[1,2,"?"],[1,2,3,4]], 'INCOMPATIBLE_DIMS', 'left_rank_static_dynamic_different_rank'],
    ['np', [[1,2,3,4],[1,2,"?"]], 'INCOMPATIBLE_DIMS', 'right_rank_static_dynamic_different_rank'],
    ['np', [[1,"?",3,4],[1,2,"?"]], 'INCOMPATIBLE_DIMS', 'both_rank_static_dynamic_different_rank'],
  // onnx/onnx:docs/Broadcasting.md
    ['np', [[3,4,5],[2,1,1,1]], [2,3,4,5], 'multidirectional examples'],
  // onnx/onnx:onnx/backend/test/case/model/expand.py
    ['bi', [[1,3,1],[1,3]], [1,3,3], 'test_expand_shape_model*'],
  // onnx/onnx:onnx/backend/test/case/node/add.py
    ['np', [[3,4,5],[3,4,5]], [3,4,5], 'test_add'],
  // onnx/onnx:onnx/backend/test/case/node/pow.py
    ['np', [[2,3],[3]], [2,3], 'test_pow_bcast_array'],
  // onnx/onnx:onnx/backend/test/case/node/xor.py
    ['np', [[3,4],[3,4]], [3,4], 'test_xor*'],
    ['np', [[3,4,5,6],[3,4,5,6]], [3,4,5,6], 'test_xor*'],
    ['np', [[3,4,5,6],[5,6]], [3,4,5,6], 'test_xor*'],
    ['np', [[3,4,5,6],[4,5,6]], [3,4,5,6], 'test_xor*'],
    ['np', [[1,4,1,6],[3,1,5,6]], [3,4,5,6], 'test_xor*'],
  // onnx/onnx:onnx/backend/test/case/node/gemm.py
    ['to', [[],[2,4]], [2,4], 'Gemm C unidirectional to (M,N)'],
    ['to', [[1],[3,3]], [3,3], 'Gemm C unidirectional to (M,N)'],
    ['to', [[1,4],[2,4]], [2,4], 'Gemm C unidirectional to (M,N)'],
    ['to', [[1,5],[3,5]], [3,5], 'Gemm C unidirectional to (M,N)'],
  // onnx/onnx:tests/python/shape_inference_test.py
    ['bi', [[],[4,8]], [4,8], 'test_expand_scalar_input'],
    ['bi', [[1,2,"?"],["?","?","?"]], ["?",2,"?"], 'test_expand_dynamic_shape (target values unknown, length 3)'],
    ['bi', [[1,2,"?"],"[...]"], "[...]", 'test_expand_symbolic_shape (target length unknown)'],
    ['np', [[30,4,5],[30,4,5]], [30,4,5], 'test_add'],
    ['np', [[30,4,5],[30,4,5],[30,4,5]], [30,4,5], 'test_sum_multi'],
    ['np', [[30,1,5],["?",4,1],[4,"?"]], [30,4,5], 'test_sum_multi_broadcasting ($a,$b as ?)'],
    ['np', [["?",1,5],["?",4,1]], ["?",4,5], 'test_sum_broadcasting_param ($a as ?)'],
    ['np', [[1,5],[30,4,5]], [30,4,5], '_logical_binary_op_with_broadcasting'],
    ['np', [[2,3,4],[1,3,1]], [2,3,4], 'test_stringconcat_broadcasting'],
  // numpy/numpy:doc/source/user/basics.broadcasting.rst
    ['np', [[5,4],[1]], [5,4], 'broadcasting examples'],
    ['np', [[15,3,5],[15,1,5]], [15,3,5], 'broadcasting examples'],
    ['np', [[15,3,5],[3,1]], [15,3,5], 'broadcasting examples'],
    ['np', [[4,3],[3]], [4,3], 'broadcasting examples'],
    ['np', [[4,1],[3]], [4,3], 'broadcasting examples'],
    ['np', [[5,1],[1,6],[6],[]], [5,6], 'broadcastable set a,b,c,d'],
    ['np', [[4,3],[4]], 'INCOMPATIBLE_DIMS', 'shapes that do not broadcast'],
    ['add', [[4,3],[0,0,0,10,10,10,20,20,20,30,30,30],[3],[1,2,3]], [1,2,3,11,12,13,21,22,23,31,32,33], 'a + b (4,3)+(3,)'],
    ['add', [[4,1],[0,10,20,30],[3],[1,2,3]], [1,2,3,11,12,13,21,22,23,31,32,33], 'a[:, newaxis] + b'],
    ['add', [[3],[1,2,3],[],[2]], [3,4,5], 'a * b scalar'],
  // tensorflow/tensorflow:tensorflow/python/kernel_tests/array_ops/broadcast_to_ops_test.py
    ['to', [[2],[2,2]], [2,2], 'testBroadcastToShape'],
    ['to', [[2],[2,2,2,2]], [2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2],[2,2,2]], [2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2],[2,2,2,2,2]], [2,2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2,2],[2,2,2]], [2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2,2],[2,2,2,2,2]], [2,2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2,2,2],[2,2,2,2]], [2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2,2,2],[2,2,2,2,2]], [2,2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,2,2,2,2],[2,2,2,2,2]], [2,2,2,2,2], 'testBroadcastToShape'],
    ['to', [[2,1,3],[2,5,3]], [2,5,3], 'testBroadcastToShapeInnerDim'],
    ['to', [[2,1,3,2,2,2,1,1,1],[1,1,1,2,5,3,2,2,2,3,3,3]], [1,1,1,2,5,3,2,2,2,3,3,3], 'testBroadcastToShapeLargerDim2'],
    ['to', [[2],[2,1]], 'INCOMPATIBLE_DIMS', 'testBroadcastToBadOutputShape'],
    ['to', [[1],[5,2,3]], [5,2,3], 'testGradientWithBroadcastAllDimensions'],
  // mindspore-ai/mindspore:tests/st/ops/test_ops_broadcast_to.py
    ['to', [[4,5,1],[3,5,7,4,5,6]], [3,5,7,4,5,6], 'test_broadcast'],
    ['to', [[1,4,1,6],[8,5,7,4,5,6]], [8,5,7,4,5,6], 'test_broadcast'],
    ['to', [[2,3,1,5,1],[3,4,5,2,3,4,5,7]], [3,4,5,2,3,4,5,7], 'test_broadcast'],
    ['to', [[3,1,5,1],[3,4,5,6]], [3,4,5,6], 'test_broadcast'],
    ['to', [[2,3],[2,2,3]], [2,2,3], 'test_broadcast_to_dynamic_shape'],
    ['to', [["?",3],[2,2,3]], [2,2,3], 'test_broadcast_to_dynamic_shape (declared input [None,3])'],
    ['to', [[3,1,5,1],[-1,-1,5,6]], [3,1,5,6], 'test_broadcast_dyn_init'], // contract: the source checks with allclose against numpy (3,4,5,6), which broadcasts; a -1 over the input 1 keeps 1 (section 5)
    ['to', [[4,5],[2,3,-1,-1]], [2,3,4,5], 'test_broadcast_dyn_init'],
  // mindspore-ai/mindspore:tests/st/ops/cpu/test_broadcast_to_op.py
    ['to', [[4,5],[2,3,-1,5]], [2,3,4,5], 'test_broadcast_dyn_init'],
  // pytorch/pytorch:test/test_view_ops.py
    ['to', [[5,1,3],[2,5,4,3]], [2,5,4,3], 'test_expand'],
    ['to', [[5],[1,1,5]], [1,1,5], 'test_expand'],
    ['to', [[5],[-1,-1]], 'MINUS_ONE_IN_NEW_AXIS', 'test_expand'],
  // openvinotoolkit/openvino:docs/articles_en/documentation/openvino-ir-format/operation-sets/broadcast-rules.rst
    ['np', [[2,3,5],[]], [2,3,5], 'Numpy examples'],
    ['np', [[2,1,5],[1,4,5]], [2,4,5], 'Numpy examples'],
    ['np', [[2,1,5],[4,1]], [2,4,5], 'Numpy examples'],
    ['np', [[3,2,1,4],[5,4]], [3,2,5,4], 'Numpy examples'],
    ['np', [[1,5,3],[5,2,1,3]], [5,2,5,3], 'Numpy examples'],
    ['np', [[3,1,5],[4,4,5]], 'INCOMPATIBLE_DIMS', 'Numpy examples'],
    ['pdpd', [[2,3,4,5],[5],-1], [2,3,4,5], 'PDPD examples'],
    ['pdpd', [[8,1,6,1],[7,1,5],1], 'INCOMPATIBLE_DIMS', 'PDPD examples'],
    ['bi', [[2,3],[3]], [2,3], 'Bidirectional examples'],
    ['bi', [[3,4],[]], [3,4], 'Bidirectional examples'],
  // openvinotoolkit/openvino:docs/articles_en/documentation/openvino-ir-format/operation-sets/operation-specs/movement/broadcast-3.rst
    ['ex', [[50,50],[1,50,50,16],[1,2]], [1,50,50,16], 'example explicit'],
    ['ex', [[3],[2,3,4,5],[1]], [2,3,4,5], 'text [C]->[N,C,H,W]'],
    ['ex', [[4,5],[2,4,5,3],[1,2]], [2,4,5,3], 'text [H,W]->[N,H,W,C]'],
  // openvinotoolkit/openvino:src/core/tests/partial_shape.cpp
    ['np', [[2,"?",3,4],[3]], 'INCOMPATIBLE_DIMS', 'partial_shape_broadcast_merge_into_fails'],
    ['none', ["[...]",[1,2,"?"]], [1,2,"?"], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', ["[...]",[1,2,3]], [1,2,3], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', [[1,2,"?"],"[...]"], [1,2,"?"], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', [[1,2,3],"[...]"], [1,2,3], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', [[1,"?",3,"?"],[1,2,"?","?"]], [1,2,3,"?"], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', [[1,2,3],[1,2,3]], [1,2,3], 'partial_shape_merge_* (merge_into = NONE)'],
    ['none', [[1,"?",3,"?"],[2,2,"?","?"]], 'SHAPE_MISMATCH', 'partial_shape_merge_* fails (NONE)'],
    ['none', [[1,"?",3,"?"],[1,2,"?"]], 'SHAPE_MISMATCH', 'partial_shape_merge_* fails (NONE)'],
    ['none', [[1,2,3],[1,2,4]], 'SHAPE_MISMATCH', 'partial_shape_merge_* fails (NONE)'],
    ['none', [[1,2,3],[1,2,3,4]], 'SHAPE_MISMATCH', 'partial_shape_merge_* fails (NONE)'],
  // openvinotoolkit/openvino:src/core/tests/dimension.cpp
    ['np', [[1],[10]], [10], 'broadcast_merge_* (neighbour file)'],
    ['np', [["1..5"],["10..15"]], ["10..15"], 'broadcast_merge_* (neighbour file)'],
    ['np', [["1..12"],["10..15"]], ["10..15"], 'broadcast_merge_* (neighbour file)'],
    ['np', [["7..12"],["10..15"]], ["10..12"], 'broadcast_merge_* (neighbour file)'],
    ['np', [["0..12"],["1..15"]], ["..15"], 'broadcast_merge_* (neighbour file)'],
  // openvinotoolkit/openvino:src/plugins/template/tests/functional/op_reference/broadcast.cpp
    ['data', [[],[6],[4]], [6,6,6,6], 'broadcast_scalar_vector'],
    ['data', [[],[6],[2,2]], [6,6,6,6], 'broadcast_scalar_matrix'],
    ['data', [[],[6],[2,2,2]], [6,6,6,6,6,6,6,6], 'broadcast_scalar_tensor'],
    ['data', [[2,2,2],[2,4,6,8,16,32,64,127],[2,2,2]], [2,4,6,8,16,32,64,127], 'broadcast_trivial'],
    ['data', [[2,2],[1,2,3,4],[2,2,2]], [1,2,3,4,1,2,3,4], 'broadcast_matrix_0'],
    ['data', [[],[6],[1,2],[0]], [6,6], 'broadcast_scalar_vector_explicit_axis_0'],
    ['data', [[3],[1,2,3],[3,4],[0]], [1,1,1,1,2,2,2,2,3,3,3,3], 'broadcast_vector_colwise'],
    ['data', [[4],[1,2,3,4],[3,4],[1]], [1,2,3,4,1,2,3,4,1,2,3,4], 'broadcast_vector_rowwise'],
    ['data', [[1],[4],[3,1],[1]], [4,4,4], 'broadcast_scalar_to_matrix'],
    ['data', [[2,2],[1,2,3,4],[2,2,2],[0,2]], [1,2,1,2,3,4,3,4], 'broadcast_matrix_1'],
    ['data', [[2,2],[1,2,3,4],[2,2,2],[0,1]], [1,1,2,2,3,3,4,4], 'broadcast_matrix_2'],
    ['data', [[2],null,[3,2,4],[1]], null, 'broadcast_algo_vector_middle'],
    ['data', [[2],null,[3,2],[1]], null, 'broadcast_algo_vector_forward_2'],
    ['data', [[2],null,[4,3,2],[2]], null, 'broadcast_algo_vector_forward_3'],
    ['data', [[2],null,[5,4,3,2],[3]], null, 'broadcast_algo_vector_forward_4'],
    ['data', [[],null,[5,4,3,2]], null, 'broadcast_algo_scalar'],
    ['data', [[2],null,[2,3],[0]], null, 'broadcast_algo_vector_backward_2'],
    ['data', [[2],null,[2,3,4],[0]], null, 'broadcast_algo_vector_backward_3'],
    ['data', [[2],null,[2,3,4,5],[0]], null, 'broadcast_algo_vector_backward_4'],
    ['data', [[4,5],null,[2,3,4,5],[2,3]], null, 'broadcast_algo_matrix_backward_4'],
    ['data', [[3,5],null,[2,3,4,5],[1,3]], null, 'broadcast_algo_matrix_stride_1'],
    ['data', [[3,4],null,[2,3,4,5],[1,2]], null, 'broadcast_algo_matrix_stride_2'],
    ['data', [[2,4],null,[2,3,4,5],[0,2]], null, 'broadcast_algo_matrix_stride_3'],
    ['data', [[2,3,4],null,[5,2,3,4],[1,2,3]], null, 'broadcast_algo_3d_backward'],
    ['data', [[2,3,4],null,[2,5,3,4],[0,2,3]], null, 'broadcast_algo_3d_stride_1'],
    ['data', [[2,3,4],null,[2,3,5,4],[0,1,3]], null, 'broadcast_algo_3d_stride_2'],
    ['data', [[3,1],null,[2,3,3],[1,2]], null, 'broadcast_algo_3d_diffrent_rank'],
    ['data', [[2,3,1,1],null,[2,3,4,5],[0,1,2,3]], null, 'broadcast_algo_4d_same_rank'],
];

// The reference of a data row: output element -> input element through the axis mapping
// (right-aligned without one), a 1 in the input repeating.
function reference(shape, data, target, map) {
  const m = map ?? shape.map((_, k) => target.length - shape.length + k);
  const n = target.reduce((p, d) => p * d, 1);
  const out = [];
  for (let f = 0; f < n; f++) {
    const idx = [];
    for (let d = target.length - 1, rem = f; d >= 0; d--) { idx[d] = rem % target[d]; rem = Math.floor(rem / target[d]); }
    let src = 0;
    for (let k = 0; k < shape.length; k++) src = src * shape[k] + (shape[k] === 1 ? 0 : idx[m[k]]);
    out.push(data[src]);
  }
  return out;
}
const iota = (shape) => Array.from({ length: shape.reduce((p, d) => p * d, 1) }, (_, k) => k + 1);

const run = ([call, a]) => {
  const f64 = (shape, data) => ({ shape, data: Float64Array.from(data) });
  switch (call) {
    case 'np': return tc.broadcastShapes(...a);
    case 'none': return tc.autoBroadcastShape(a[0], a[1], { type: 'none' });
    case 'pdpd': return tc.autoBroadcastShape(a[0], a[1], { type: 'pdpd', axis: a[2] });
    case 'to': return tc.broadcastToShape(a[0], a[1]);
    case 'bi': return tc.broadcastToShape(a[0], a[1], { mode: 'bidirectional' });
    case 'ex': return tc.broadcastToShape(a[0], a[1], { mode: 'explicit', axesMapping: a[2] });
    case 'pop': return tc.broadcastToShape(a[0], a[1], { mode: 'pdpd', axis: a[2] });
    case 'data': return Array.from(tc.broadcastTo(f64(a[0], a[1] ?? iota(a[0])), a[2], a[3] ? { mode: 'explicit', axesMapping: a[3] } : undefined).data);
    case 'add': return Array.from(tc.add(f64(a[0], a[1]), f64(a[2], a[3])).data);
    default: throw new Error(call);
  }
};

describe('upstream broadcasting cases', () => {
  it('has the cases', () => expect(CASES.length).toBe(325));
  for (const c of CASES) {
    const [call, args, want, test] = c;
    it(`${test}: ${call} ${JSON.stringify(args).slice(0, 80)}`, () => {
      if (typeof want === 'string' && want !== '[...]') {
        let err;
        try { run(c); } catch (e) { err = e; }
        expect(err, 'expected a BroadcastError').toBeInstanceOf(tc.BroadcastError);
        expect(err.code).toBe(want);
      } else {
        const w = want ?? reference(args[0], args[1] ?? iota(args[0]), args[2], args[3]);
        expect(run(c)).toEqual(w);
      }
    });
  }
});
