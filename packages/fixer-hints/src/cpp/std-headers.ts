/**
 * Where the C++ standard declares common names of namespace std, after the header synopses of the
 * standard (C++20, plus what GCC 12 ships of C++23). A name is listed under every header whose
 * synopsis declares it for arguments that need no other header; overloads on a header's own types
 * are left out (`sqrt` of a `complex` in <complex>, `swap` of two `vector`s in <vector>), because
 * code that calls them has that header already. A name listed under two headers (`abs`, `size_t`,
 * `remove`, `move`) is ambiguous on purpose: the fixer never picks one.
 */
const HEADERS: Record<string, string> = {
  algorithm:
    'all_of any_of none_of for_each for_each_n find find_if find_if_not find_end find_first_of adjacent_find count count_if mismatch equal is_permutation search search_n copy copy_n copy_if copy_backward move move_backward swap_ranges iter_swap transform replace replace_if replace_copy replace_copy_if fill fill_n generate generate_n remove remove_if remove_copy remove_copy_if unique unique_copy reverse reverse_copy rotate rotate_copy shift_left shift_right shuffle sample is_partitioned partition stable_partition partition_copy partition_point sort stable_sort partial_sort partial_sort_copy is_sorted is_sorted_until nth_element lower_bound upper_bound binary_search equal_range merge inplace_merge includes set_difference set_intersection set_symmetric_difference set_union push_heap pop_heap make_heap sort_heap is_heap is_heap_until max max_element min min_element minmax minmax_element clamp lexicographical_compare next_permutation prev_permutation',
  any: 'any any_cast make_any bad_any_cast',
  array: 'array to_array',
  atomic:
    'atomic atomic_ref atomic_flag memory_order memory_order_relaxed memory_order_consume memory_order_acquire memory_order_release memory_order_acq_rel memory_order_seq_cst atomic_thread_fence atomic_signal_fence kill_dependency atomic_bool atomic_char atomic_int atomic_uint atomic_long atomic_ulong atomic_llong atomic_ullong atomic_size_t atomic_ptrdiff_t atomic_intptr_t atomic_uintptr_t atomic_int8_t atomic_uint8_t atomic_int16_t atomic_uint16_t atomic_int32_t atomic_uint32_t atomic_int64_t atomic_uint64_t',
  barrier: 'barrier',
  bit: 'bit_cast byteswap has_single_bit bit_ceil bit_floor bit_width rotl rotr countl_zero countl_one countr_zero countr_one popcount endian',
  bitset: 'bitset',
  cctype:
    'isalnum isalpha isblank iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit tolower toupper',
  charconv: 'to_chars from_chars chars_format to_chars_result from_chars_result',
  chrono: 'chrono',
  cinttypes: 'imaxabs imaxdiv imaxdiv_t strtoimax strtoumax wcstoimax wcstoumax',
  clocale: 'setlocale localeconv lconv',
  cmath:
    'abs fabs fmod remainder remquo fma fmax fmin fdim nan nanf nanl exp exp2 expm1 log log10 log2 log1p pow sqrt cbrt hypot sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh erf erfc tgamma lgamma ceil floor trunc round lround llround nearbyint rint lrint llrint frexp ldexp modf scalbn scalbln ilogb logb nextafter nexttoward copysign fpclassify isfinite isinf isnan isnormal signbit isgreater isgreaterequal isless islessequal islessgreater isunordered float_t double_t lerp assoc_laguerre assoc_legendre beta comp_ellint_1 comp_ellint_2 comp_ellint_3 cyl_bessel_i cyl_bessel_j cyl_bessel_k cyl_neumann ellint_1 ellint_2 ellint_3 expint hermite laguerre legendre riemann_zeta sph_bessel sph_legendre sph_neumann',
  compare:
    'strong_ordering weak_ordering partial_ordering three_way_comparable three_way_comparable_with compare_three_way compare_three_way_result common_comparison_category strong_order weak_order partial_order is_eq is_neq is_lt is_lteq is_gt is_gteq',
  complex: 'complex polar',
  concepts:
    'same_as derived_from convertible_to common_reference_with common_with integral signed_integral unsigned_integral floating_point assignable_from swappable swappable_with destructible constructible_from default_initializable move_constructible copy_constructible equality_comparable equality_comparable_with totally_ordered totally_ordered_with movable copyable semiregular regular invocable regular_invocable predicate relation equivalence_relation strict_weak_order',
  condition_variable: 'condition_variable condition_variable_any cv_status notify_all_at_thread_exit',
  coroutine: 'coroutine_handle coroutine_traits suspend_always suspend_never noop_coroutine',
  csetjmp: 'longjmp jmp_buf',
  csignal: 'signal raise sig_atomic_t',
  cstdarg: 'va_list',
  cstddef: 'size_t ptrdiff_t nullptr_t max_align_t byte to_integer',
  cstdint:
    'int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t uint_fast16_t uint_fast32_t uint_fast64_t intmax_t uintmax_t intptr_t uintptr_t',
  cstdio:
    'FILE fpos_t size_t printf fprintf sprintf snprintf scanf fscanf sscanf vprintf vfprintf vsprintf vsnprintf vscanf vfscanf vsscanf puts fputs fgets putchar getchar fputc fgetc putc getc ungetc fopen fclose fflush freopen fread fwrite fseek ftell rewind fgetpos fsetpos feof ferror clearerr perror remove rename tmpfile tmpnam setbuf setvbuf',
  cstdlib:
    'size_t div_t ldiv_t lldiv_t abs labs llabs div ldiv lldiv malloc calloc realloc free aligned_alloc atoi atol atoll atof strtol strtoll strtoul strtoull strtof strtod strtold rand srand exit abort atexit quick_exit at_quick_exit _Exit getenv system qsort bsearch mblen mbtowc wctomb mbstowcs wcstombs',
  cstring:
    'size_t strlen strcpy strncpy strcat strncat strcmp strncmp strcoll strxfrm strchr strrchr strspn strcspn strpbrk strstr strtok memchr memcmp memset memcpy memmove strerror',
  ctime:
    'size_t time_t clock_t tm timespec time clock difftime mktime strftime localtime gmtime asctime ctime timespec_get',
  deque: 'deque',
  exception:
    'exception bad_exception nested_exception exception_ptr terminate terminate_handler get_terminate set_terminate uncaught_exceptions current_exception rethrow_exception make_exception_ptr throw_with_nested rethrow_if_nested',
  execution: 'execution is_execution_policy is_execution_policy_v',
  filesystem: 'filesystem',
  forward_list: 'forward_list',
  fstream:
    'ifstream ofstream fstream filebuf wifstream wofstream wfstream basic_ifstream basic_ofstream basic_fstream basic_filebuf',
  functional:
    'function bind bind_front ref cref reference_wrapper invoke mem_fn not_fn hash placeholders is_bind_expression is_placeholder bad_function_call plus minus multiplies divides modulus negate equal_to not_equal_to greater less greater_equal less_equal logical_and logical_or logical_not bit_and bit_or bit_xor bit_not identity default_searcher boyer_moore_searcher boyer_moore_horspool_searcher',
  future: 'future shared_future promise packaged_task async launch future_status future_error future_errc',
  initializer_list: 'initializer_list',
  iomanip:
    'setw setprecision setfill setbase setiosflags resetiosflags put_time get_time put_money get_money quoted',
  ios: 'ios_base ios wios basic_ios streamsize streamoff fpos io_errc boolalpha noboolalpha showbase noshowbase showpoint noshowpoint showpos noshowpos skipws noskipws uppercase nouppercase unitbuf nounitbuf internal left right dec hex oct fixed scientific hexfloat defaultfloat',
  iostream: 'cin cout cerr clog wcin wcout wcerr wclog',
  istream: 'istream wistream basic_istream iostream wiostream basic_iostream ws',
  iterator:
    'begin end cbegin cend rbegin rend crbegin crend size ssize empty data advance distance next prev back_inserter front_inserter inserter make_reverse_iterator make_move_iterator iterator_traits reverse_iterator move_iterator back_insert_iterator front_insert_iterator insert_iterator istream_iterator ostream_iterator istreambuf_iterator ostreambuf_iterator counted_iterator default_sentinel_t default_sentinel unreachable_sentinel_t unreachable_sentinel input_iterator_tag output_iterator_tag forward_iterator_tag bidirectional_iterator_tag random_access_iterator_tag contiguous_iterator_tag input_iterator output_iterator forward_iterator bidirectional_iterator random_access_iterator contiguous_iterator iter_value_t iter_reference_t iter_difference_t',
  latch: 'latch',
  limits: 'numeric_limits float_round_style float_denorm_style',
  list: 'list',
  locale:
    'locale use_facet has_facet ctype codecvt numpunct moneypunct collate messages num_get num_put time_get time_put money_get money_put wstring_convert wbuffer_convert',
  map: 'map multimap',
  memory:
    'unique_ptr shared_ptr weak_ptr make_unique make_unique_for_overwrite make_shared make_shared_for_overwrite allocate_shared enable_shared_from_this bad_weak_ptr owner_less default_delete allocator allocator_traits pointer_traits addressof align static_pointer_cast dynamic_pointer_cast const_pointer_cast reinterpret_pointer_cast uninitialized_copy uninitialized_copy_n uninitialized_fill uninitialized_fill_n uninitialized_move uninitialized_move_n uninitialized_default_construct uninitialized_value_construct destroy destroy_at destroy_n construct_at to_address assume_aligned',
  mutex:
    'mutex recursive_mutex timed_mutex recursive_timed_mutex lock_guard unique_lock scoped_lock once_flag call_once try_lock lock defer_lock defer_lock_t try_to_lock try_to_lock_t adopt_lock adopt_lock_t',
  new: 'bad_alloc bad_array_new_length nothrow nothrow_t align_val_t destroying_delete launder new_handler get_new_handler set_new_handler hardware_destructive_interference_size hardware_constructive_interference_size',
  numbers: 'numbers',
  numeric:
    'accumulate reduce transform_reduce inner_product adjacent_difference partial_sum inclusive_scan exclusive_scan transform_inclusive_scan transform_exclusive_scan iota gcd lcm midpoint',
  optional: 'optional nullopt nullopt_t make_optional bad_optional_access',
  ostream: 'ostream wostream basic_ostream endl ends flush emit_on_flush noemit_on_flush flush_emit',
  queue: 'queue priority_queue',
  random:
    'random_device mt19937 mt19937_64 minstd_rand minstd_rand0 ranlux24 ranlux48 knuth_b default_random_engine linear_congruential_engine mersenne_twister_engine subtract_with_carry_engine discard_block_engine independent_bits_engine shuffle_order_engine seed_seq generate_canonical uniform_int_distribution uniform_real_distribution bernoulli_distribution binomial_distribution negative_binomial_distribution geometric_distribution poisson_distribution exponential_distribution gamma_distribution weibull_distribution extreme_value_distribution normal_distribution lognormal_distribution chi_squared_distribution cauchy_distribution fisher_f_distribution student_t_distribution discrete_distribution piecewise_constant_distribution piecewise_linear_distribution uniform_random_bit_generator',
  ranges: 'views',
  ratio:
    'ratio ratio_add ratio_subtract ratio_multiply ratio_divide ratio_equal ratio_not_equal ratio_less ratio_less_equal ratio_greater ratio_greater_equal atto femto pico nano micro milli centi deci deca hecto kilo mega giga tera peta exa',
  regex:
    'regex wregex basic_regex smatch cmatch wsmatch wcmatch match_results sub_match ssub_match csub_match regex_match regex_search regex_replace sregex_iterator cregex_iterator sregex_token_iterator cregex_token_iterator regex_iterator regex_token_iterator regex_error regex_traits regex_constants',
  scoped_allocator: 'scoped_allocator_adaptor',
  semaphore: 'counting_semaphore binary_semaphore',
  set: 'set multiset',
  shared_mutex: 'shared_mutex shared_timed_mutex shared_lock',
  source_location: 'source_location',
  span: 'span dynamic_extent as_bytes as_writable_bytes',
  sstream:
    'stringstream istringstream ostringstream stringbuf wstringstream wistringstream wostringstream wstringbuf basic_stringstream basic_istringstream basic_ostringstream basic_stringbuf',
  stack: 'stack',
  stdexcept:
    'logic_error domain_error invalid_argument length_error out_of_range runtime_error range_error overflow_error underflow_error',
  stop_token: 'stop_token stop_source stop_callback nostopstate nostopstate_t',
  streambuf: 'streambuf wstreambuf basic_streambuf',
  string:
    'string wstring u8string u16string u32string basic_string char_traits to_string to_wstring stoi stol stoll stoul stoull stof stod stold getline',
  string_view: 'string_view wstring_view u8string_view u16string_view u32string_view basic_string_view',
  syncstream: 'osyncstream wosyncstream basic_osyncstream basic_syncbuf syncbuf wsyncbuf',
  system_error:
    'error_code error_condition error_category system_error errc generic_category system_category is_error_code_enum is_error_condition_enum',
  thread: 'thread jthread this_thread',
  tuple: 'tuple make_tuple tie forward_as_tuple tuple_cat apply make_from_tuple ignore',
  type_traits:
    'integral_constant bool_constant true_type false_type is_void is_null_pointer is_integral is_floating_point is_array is_enum is_union is_class is_function is_pointer is_lvalue_reference is_rvalue_reference is_member_object_pointer is_member_function_pointer is_fundamental is_arithmetic is_scalar is_object is_compound is_reference is_member_pointer is_const is_volatile is_trivial is_trivially_copyable is_standard_layout is_empty is_polymorphic is_abstract is_final is_aggregate is_signed is_unsigned is_bounded_array is_unbounded_array is_constructible is_default_constructible is_copy_constructible is_move_constructible is_assignable is_copy_assignable is_move_assignable is_swappable is_destructible is_trivially_constructible is_trivially_destructible is_nothrow_constructible is_nothrow_default_constructible is_nothrow_copy_constructible is_nothrow_move_constructible is_nothrow_assignable is_nothrow_move_assignable is_nothrow_swappable is_nothrow_destructible has_virtual_destructor has_unique_object_representations alignment_of rank extent is_same is_base_of is_convertible is_nothrow_convertible is_invocable is_invocable_r is_nothrow_invocable remove_const remove_volatile remove_cv add_const add_volatile add_cv remove_reference add_lvalue_reference add_rvalue_reference make_signed make_unsigned remove_extent remove_all_extents remove_pointer add_pointer remove_cvref decay enable_if conditional common_type common_reference underlying_type invoke_result void_t type_identity conjunction disjunction negation is_constant_evaluated remove_const_t remove_cv_t remove_reference_t remove_cvref_t decay_t enable_if_t conditional_t common_type_t underlying_type_t invoke_result_t add_pointer_t remove_pointer_t make_signed_t make_unsigned_t type_identity_t is_same_v is_integral_v is_floating_point_v is_arithmetic_v is_pointer_v is_reference_v is_const_v is_class_v is_enum_v is_base_of_v is_convertible_v is_constructible_v is_default_constructible_v is_trivially_copyable_v is_invocable_v is_void_v is_array_v',
  typeindex: 'type_index',
  typeinfo: 'type_info bad_cast bad_typeid',
  unordered_map: 'unordered_map unordered_multimap',
  unordered_set: 'unordered_set unordered_multiset',
  utility:
    'swap exchange forward move move_if_noexcept as_const declval pair make_pair piecewise_construct piecewise_construct_t in_place in_place_t in_place_type in_place_type_t in_place_index in_place_index_t integer_sequence index_sequence make_integer_sequence make_index_sequence index_sequence_for cmp_equal cmp_not_equal cmp_less cmp_greater cmp_less_equal cmp_greater_equal in_range to_underlying unreachable',
  valarray: 'valarray slice slice_array gslice gslice_array mask_array indirect_array',
  variant:
    'variant visit holds_alternative get_if monostate bad_variant_access variant_size variant_alternative variant_npos',
  vector: 'vector',
};

const byName = new Map<string, string[]>();
for (const [header, names] of Object.entries(HEADERS)) {
  for (const name of names.split(' ')) byName.set(name, [...(byName.get(name) ?? []), `<${header}>`]);
}

/** The headers that declare `std::<name>`: one for a name the fixer may include, several for an ambiguous one, none when unknown. */
export function stdHeaders(name: string): string[] {
  return byName.get(name) ?? [];
}

/** Every header and the names the table gives it (for the table's own tests). */
export function stdTable(): Array<[header: string, names: string[]]> {
  return Object.entries(HEADERS).map(([header, names]) => [`<${header}>`, names.split(' ')]);
}
