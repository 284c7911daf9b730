// The allocator's entry points, each refusing what it could not allocate
// without writing over memory in use.
//
// Memory grows to 4 GB (-sMAXIMUM_MEMORY=4GB), and emmalloc (Emscripten
// 3.1.6, -sMALLOC=emmalloc) checks whether a free region holds a request by
// adding the request's size to the region's address in 32-bit pointer
// arithmetic: a size that takes that sum past 4 GiB wraps around to a small
// address, the region is taken for large enough, and the block it returns runs
// past the end of memory while the allocator writes its bookkeeping over
// memory in use (a 2 GiB tensor asked for with 2.1 GiB in use came back as an
// address, and the next call trapped). realloc's resize of a block in place
// and calloc's count * size wrap the same way.
//
// Every free region lies below the break (sbrk(0)): a request whose size,
// added to the break with room for alignment and the allocator's headers,
// stays under 2^32 cannot wrap in any region. One that does not could not be
// had by growing memory either (memory ends at 4 GB - 64 KiB); it is refused
// here (null, as malloc says it is out of memory), which the library reports
// as TOO_LARGE. What this refuses that a free region might have held: once
// the break is high (memory filled close to 4 GB, then freed; emmalloc never
// lowers it), a block larger than what is left above the break, even where a
// freed region below could hold it. Which region emmalloc would look at is not
// known from outside it, and any of them at or above 2^32 minus the size
// would wrap.
//
// These definitions take the place of emmalloc's (weak) ones: every
// allocation of the module goes through them, the library's blocks
// (calls.cpp allocate) and the engine's own (its PodVectors, the reduction's
// temporary buffer in interp.cpp). emmalloc's own functions do the work.
#include <emscripten/emmalloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace {

// Room for the alignment padding and region headers emmalloc adds to a request
// (a few words; generously more).
constexpr std::uint64_t kSlack = 4096;

bool fits(std::size_t alignment, std::uint64_t size) {
  const std::uint64_t brk = reinterpret_cast<std::uintptr_t>(sbrk(0));
  return brk + size + alignment + kSlack < (std::uint64_t{1} << 32);
}

}  // namespace

namespace tc::calls {

// The library's data blocks (tensors, results, scratch: calls.cpp allocate())
// stay below the last 16 MiB that memory can grow to, which is the engine's
// own (plans, compiled expressions, request and response buffers): those come
// from operator new, which without exceptions can only abort when malloc says
// no. Data that would fill memory is refused as TOO_LARGE instead, and a call
// that needs a new plan or expression still gets one. By address, not by the
// break: once memory has been full, the break stays high, and data blocks
// still go to the free regions below.
constexpr std::uint64_t kDataTop = (std::uint64_t{1} << 32) - (std::uint64_t{16} << 20);

bool data_block_fits(const void* block, std::uint64_t bytes) {
  return reinterpret_cast<std::uintptr_t>(block) + bytes <= kDataTop;
}

}  // namespace tc::calls

extern "C" {

void* malloc(std::size_t size) { return fits(alignof(std::max_align_t), size) ? emmalloc_malloc(size) : nullptr; }

void* memalign(std::size_t alignment, std::size_t size) {
  return fits(alignment, size) ? emmalloc_memalign(alignment, size) : nullptr;
}

void* aligned_alloc(std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || alignment == 0 || size % alignment != 0) return nullptr;
  return memalign(alignment, size);
}

int posix_memalign(void** memptr, std::size_t alignment, std::size_t size) {
  if (!fits(alignment, size)) return ENOMEM;
  return emmalloc_posix_memalign(memptr, alignment, size);
}

void* calloc(std::size_t num, std::size_t size) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(num) * size;  // no 32-bit wrap
  return fits(alignof(std::max_align_t), bytes) ? emmalloc_calloc(num, size) : nullptr;
}

void* realloc(void* ptr, std::size_t size) {
  return fits(alignof(std::max_align_t), size) ? emmalloc_realloc(ptr, size) : nullptr;
}

void* aligned_realloc(void* ptr, std::size_t alignment, std::size_t size) {
  return fits(alignment, size) ? emmalloc_aligned_realloc(ptr, alignment, size) : nullptr;
}

}  // extern "C"
