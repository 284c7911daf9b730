// A growable array of plain elements, the engine's vector: elements are
// copied and moved as bytes (memcpy) and never destroyed one by one, so an
// element type must be trivially destructible and hold no pointer into itself
// (a Shape, whose copy constructor copies only the dims in use, qualifies).
//
// Why not std::vector: the engine ships in the page's wasm, and each
// std::vector<T> brings its own push_back / assign / resize / reallocation
// code per element type (about 0.5-1 KB each). PodVector's storage
// management is one out-of-line function for every element type
// (grow_storage below); what stays per type is a few inlined loops. The
// interface is the subset of std::vector the engine uses, with the same
// meaning (append() is insert(end(), first, last)). Allocation failure aborts,
// as std::vector's does with exceptions off.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <type_traits>

namespace tc {

namespace detail {
// Makes room for at least `want` elements of `size` bytes: capacity doubles
// (or becomes `want`), contents kept. One definition for every element type.
__attribute__((noinline)) inline void grow_storage(void*& data, std::size_t& cap, std::size_t want, std::size_t size) {
  std::size_t n = cap * 2 > want ? cap * 2 : want;
  if (n < 4) n = 4;
  void* p = std::malloc(n * size);  // (not realloc: malloc and free are in the wasm anyway)
  if (p == nullptr) std::abort();
  if (cap != 0) std::memcpy(p, data, cap * size);
  std::free(data);
  data = p;
  cap = n;
}
}  // namespace detail

template <class T>
class PodVector {
  static_assert(std::is_trivially_destructible<T>::value, "PodVector holds plain elements, moved as bytes");

 public:
  PodVector() = default;
  explicit PodVector(std::size_t n, const T& v = T()) { assign(n, v); }
  PodVector(std::initializer_list<T> l) { append(l.begin(), l.end()); }
  PodVector(const PodVector& o) { append(o.begin(), o.end()); }
  PodVector(PodVector&& o) noexcept { swap(o); }
  PodVector& operator=(const PodVector& o) {
    if (this != &o) {
      n_ = 0;
      append(o.begin(), o.end());
    }
    return *this;
  }
  PodVector& operator=(PodVector&& o) noexcept {
    swap(o);
    return *this;
  }
  ~PodVector() { std::free(p_); }

  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T* begin() { return p_; }
  T* end() { return p_ + n_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + n_; }
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }
  T& at(std::size_t i) {
    if (i >= n_) std::abort();
    return p_[i];
  }
  const T& at(std::size_t i) const {
    if (i >= n_) std::abort();
    return p_[i];
  }
  T& back() { return p_[n_ - 1]; }
  const T& back() const { return p_[n_ - 1]; }

  void reserve(std::size_t n) {
    if (n > cap_) grow(n);
  }
  void push_back(const T& v) {
    const T copy = v;  // v may be an element of this vector
    if (n_ == cap_) grow(n_ + 1);
    p_[n_++] = copy;
  }
  void pop_back() { --n_; }
  void clear() { n_ = 0; }
  void resize(std::size_t n) {
    reserve(n);
    for (std::size_t i = n_; i < n; ++i) p_[i] = T();
    n_ = n;
  }
  void assign(std::size_t n, const T& v) {
    const T copy = v;
    n_ = 0;
    reserve(n);
    for (std::size_t i = 0; i < n; ++i) p_[i] = copy;
    n_ = n;
  }
  void assign(const T* first, const T* last) {
    n_ = 0;
    append(first, last);
  }
  // insert(end(), first, last); [first, last) must not be inside this vector.
  void append(const T* first, const T* last) {
    const std::size_t k = static_cast<std::size_t>(last - first);
    reserve(n_ + k);
    if (k != 0) std::memcpy(static_cast<void*>(p_ + n_), first, k * sizeof(T));
    n_ += k;
  }
  void swap(PodVector& o) noexcept {
    T* p = p_;
    p_ = o.p_;
    o.p_ = p;
    std::size_t t = n_;
    n_ = o.n_;
    o.n_ = t;
    t = cap_;
    cap_ = o.cap_;
    o.cap_ = t;
  }

 private:
  void grow(std::size_t want) {
    void* p = p_;
    detail::grow_storage(p, cap_, want, sizeof(T));
    p_ = static_cast<T*>(p);
  }
  T* p_ = nullptr;
  std::size_t n_ = 0, cap_ = 0;
};

// Element-wise, as std::vector's (for element types that have ==).
template <class T>
bool operator==(const PodVector<T>& a, const PodVector<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return false;
  return true;
}
template <class T>
bool operator!=(const PodVector<T>& a, const PodVector<T>& b) {
  return !(a == b);
}

}  // namespace tc
