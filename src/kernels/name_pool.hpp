// The names of a registry's entries (registry.cpp, reduce_registry.cpp,
// unary_registry.cpp), built once and without std::string: each name is
// written into one pool of characters, and at(i) points at the i-th once every
// name has been added (the pool no longer moves then).
#pragma once

#include <cstddef>
#include <initializer_list>
#include "core/pod_vector.hpp"

namespace tc {

class NamePool {
 public:
  // Adds a name: the concatenation of `parts`.
  void add(std::initializer_list<const char*> parts) {
    starts_.push_back(text_.size());
    for (const char* p : parts)
      while (*p) text_.push_back(*p++);
    text_.push_back('\0');
  }
  // The i-th name, NUL-terminated.
  const char* at(size_t i) const { return text_.data() + starts_[i]; }

 private:
  PodVector<char> text_;
  PodVector<size_t> starts_;
};

}  // namespace tc
