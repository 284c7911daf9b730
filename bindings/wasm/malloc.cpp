// The allocator's entry points, each refusing what it could not allocate
// without writing over memory in use.
//
// Memory grows to 4 GB less a page (-sMAXIMUM_MEMORY), and emmalloc (Emscripten
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
// allocation of the engine's own goes through them (operator new, its
// PodVectors, the reduction's temporary buffer in interp.cpp), and the
// library's data blocks through data_block() below (calls.cpp allocate), with
// the same guard. emmalloc's own functions do the work.
#include <emscripten/emmalloc.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace {

// Room for the alignment padding and region headers emmalloc adds to a request
// (a few words; generously more).
constexpr std::uint64_t kSlack = 4096;

bool fits(std::size_t alignment, std::uint64_t size) {
  const std::uint64_t brk = reinterpret_cast<std::uintptr_t>(sbrk(0));
  return brk + size + alignment + kSlack < (std::uint64_t{1} << 32);
}

// The last 16 MiB that memory can grow to are the engine's own (plans,
// compiled expressions, request and response buffers): those come from
// operator new, which without exceptions can only abort when malloc says no.
// The library's data blocks (tensors, results, scratch: calls.cpp allocate())
// stay below that line, by address, not by the break (once memory has been
// full, the break stays high and the freed regions are below it): data that
// would fill memory is refused as TOO_LARGE, and a call that needs a new plan
// or expression still gets one.
//
// emmalloc serves a request from the smallest free region that holds it: once
// the engine's blocks have gone to the reserve (memory full of data), its free
// space is cut into regions smaller than the 4 GB freed below, and small data
// requests land there every time. So a data block that comes from a free
// region of the reserve is kept as a plug (not handed out, not counted by
// allocated_bytes()) and the request is tried again, until a block comes from
// below or none comes (TOO_LARGE). Plugs stay across calls: once the reserve's
// free space is plugged, data requests go below at once. A block for which
// memory was grown into the reserve is given back, not kept: kept, it would
// only have the next request grow memory again, and the break, which limits
// what fits (above), would climb to the top of memory. Nor is a block larger
// than the reserve kept (it could hold much memory below the line). The
// engine's own allocations give every plug back and try again when emmalloc
// says no, so the reserve is there when the engine needs it.
constexpr std::size_t kReserve = std::size_t{16} << 20;
constexpr std::uintptr_t kDataTop = 0 - kReserve;  // 2^32 - 16 MiB

void* g_plugs = nullptr;  // a list through the plugs' first words

// emmalloc's memalign if the size fits (out of line: emmalloc's code is inlined here only).
__attribute__((noinline)) void* block(std::size_t alignment, std::size_t size) {
  return fits(alignment, size) ? emmalloc_memalign(alignment, size) : nullptr;
}

// Gives every plug back: whether there was one (then the engine tries again).
bool unplug() {
  const bool any = g_plugs;
  while (void* p = g_plugs) {
    g_plugs = *static_cast<void**>(p);
    emmalloc_free(p);
  }
  return any;
}

}  // namespace

namespace tc::calls {

void* data_block(std::size_t alignment, std::size_t size) {
  for (;;) {
    const auto brk = reinterpret_cast<std::uintptr_t>(sbrk(0));
    void* p = block(alignment, size);
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    if (!p || at <= kDataTop - size) return p;
    if (at + size > brk || size > kReserve) {  // memory grown for it, or too large to keep
      emmalloc_free(p);
      return nullptr;
    }
    *static_cast<void**>(p) = g_plugs;  // from a free region of the reserve: a plug
    g_plugs = p;
  }
}

}  // namespace tc::calls

extern "C" {

__attribute__((noinline)) void* memalign(std::size_t alignment, std::size_t size) {
  void* p;
  while (!(p = block(alignment, size)) && unplug()) {
  }
  return p;
}

void* malloc(std::size_t size) { return memalign(alignof(std::max_align_t), size); }

void* aligned_alloc(std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || alignment == 0 || size % alignment != 0) return nullptr;
  return memalign(alignment, size);
}

int posix_memalign(void** memptr, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0) return EINVAL;
  return (*memptr = memalign(alignment, size)) ? 0 : ENOMEM;
}

void* calloc(std::size_t num, std::size_t size) {
  const std::uint64_t bytes = static_cast<std::uint64_t>(num) * size;  // no 32-bit wrap
  void* p = bytes >> 32 ? nullptr : malloc(bytes);
  return p ? std::memset(p, 0, bytes) : p;
}

// realloc(p, 0) frees p and gives null: not tried again.
void* aligned_realloc(void* ptr, std::size_t alignment, std::size_t size) {
  void* p;
  while (!(p = fits(alignment, size) ? emmalloc_aligned_realloc(ptr, alignment, size) : nullptr) && size && unplug()) {
  }
  return p;
}

void* realloc(void* ptr, std::size_t size) { return aligned_realloc(ptr, alignof(std::max_align_t), size); }

}  // extern "C"
