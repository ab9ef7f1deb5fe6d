// Copyright RingKernel authors.
#include "runtime_copies.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__ELF__) && __has_include(<link.h>)
#include <link.h>
#include <unistd.h>

#include <atomic>
#define RINGKERNEL_FINDS_RUNTIME_COPIES 1
#endif

namespace ringkernel::detail {

#if defined(RINGKERNEL_FINDS_RUNTIME_COPIES)

// The note every object linked with this file carries once (an allocated note section: the linker
// puts it in a PT_NOTE segment, keeps it under --gc-sections, strip keeps it): name "RingKernel",
// type 0x524b0001, desc { uint32 format = 1; int32 offset from this field to the copy's word }.
// The word (zero until the copy's registry is made) is local to the object: assembler labels, no
// symbols, so neither symbol binding nor LTO can make two objects share it. Later formats keep
// these two fields first.
asm(R"(
  .pushsection .bss.ringkernel_runtime_copy,"aw",%nobits
  .balign 4
.Lringkernel_runtime_copy_word:
  .zero 4
  .popsection
  .pushsection .note.ringkernel,"a",%note
  .balign 4
  .long 11
  .long 8
  .long 0x524b0001
  .asciz "RingKernel"
  .balign 4
  .long 1
  .long .Lringkernel_runtime_copy_word - .
  .popsection
)");

namespace {

constexpr std::uint32_t note_type = 0x524b0001;
constexpr char note_name[] = "RingKernel";
const char anchor = 0;  // an address inside the object this copy is linked into

struct Copy {
  char name[1024] = {};  // dlpi_name (cut at 1023 bytes): empty for the main program
  std::uint32_t* word = nullptr;
  bool self = false;
};

bool holds(const dl_phdr_info& info, const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const auto& ph = info.dlpi_phdr[i];
    const std::uintptr_t start = info.dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && address >= start && address - start < ph.p_memsz) return true;
  }
  return false;
}

/// The copy's word in the object's notes, or null.
std::uint32_t* find_word(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const auto& ph = info.dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info.dlpi_addr + ph.p_vaddr);
    const char* const end = p + ph.p_memsz;
    while (end - p >= 12) {
      std::uint32_t header[3];  // namesz, descsz, type
      std::memcpy(header, p, sizeof header);
      const char* name = p + 12;
      const char* desc = name + ((std::uint64_t{header[0]} + 3) & ~std::uint64_t{3});
      const char* next = desc + ((std::uint64_t{header[1]} + 3) & ~std::uint64_t{3});
      if (desc > end || next > end || next <= p) break;
      if (header[2] == note_type && header[0] == sizeof note_name &&
          std::memcmp(name, note_name, sizeof note_name) == 0 && header[1] >= 8) {
        std::uint32_t format = 0;
        std::int32_t offset = 0;
        std::memcpy(&format, desc, 4);
        std::memcpy(&offset, desc + 4, 4);
        if (format >= 1) return reinterpret_cast<std::uint32_t*>(const_cast<char*>(desc + 4) + offset);
      }
      p = next;
    }
  }
  return nullptr;
}

std::vector<Copy> loaded_copies() {
  // No exception may leave the callback: dl_iterate_phdr holds the loader's lock while it calls it.
  // So the objects are copied out only after the walk (their count first, a std::bad_alloc then
  // thrown here), and the walk itself allocates nothing.
  struct Walk {
    Copy* out;
    std::size_t capacity;
    std::size_t found;
  };
  std::vector<Copy> copies;
  std::size_t capacity = 4;
  for (;;) {
    copies.assign(capacity, Copy{});
    Walk walk{copies.data(), copies.size(), 0};
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) noexcept {
          auto& w = *static_cast<Walk*>(data);
          if (std::uint32_t* word = find_word(*info)) {
            if (w.found < w.capacity) {
              if (info->dlpi_name != nullptr) {
                std::strncpy(w.out[w.found].name, info->dlpi_name, sizeof w.out[w.found].name - 1);
              }
              w.out[w.found].word = word;
              w.out[w.found].self = holds(*info, &anchor);
            }
            ++w.found;
          }
          return 0;
        },
        &walk);
    if (walk.found <= walk.capacity) {
      copies.resize(walk.found);
      return copies;
    }
    capacity = walk.found + 4;  // objects loaded meanwhile: walk again
  }
}

std::string describe(const char* object) {
  if (object[0] != '\0') return object;
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path);
  return n > 0 ? "the main program (" + std::string(path, static_cast<std::size_t>(n)) + ")" : "the main program";
}

std::uint32_t load(std::uint32_t* word) { return std::atomic_ref<std::uint32_t>(*word).load(); }

}  // namespace

std::optional<Error> claim_runtime_copy() {
  // Mark first, then look: of two copies that start at once, the later mark sees the earlier.
  std::uint32_t* own = nullptr;
  for (const auto& copy : loaded_copies())
    if (copy.self) own = copy.word;
  if (own == nullptr) return std::nullopt;  // no note found: nothing to compare with
  std::atomic_ref<std::uint32_t>(*own).store(1);

  std::vector<std::string> in_use;
  std::string self;
  for (const auto& copy : loaded_copies()) {
    if (copy.word == own) {
      self = describe(copy.name);
    } else if (load(copy.word) != 0) {
      in_use.push_back(describe(copy.name));
    }
  }
  if (in_use.empty()) return std::nullopt;

  std::string list;
  for (const auto& name : in_use) list += (list.empty() ? "" : ", ") + name;
  return Error(errc::configuration, "RingKernel runtime", no_device,
               std::to_string(in_use.size() + 1) +
                   " copies of the RingKernel runtime are in use in this process: " + list + " and " +
                   self + ", whose copy refuses every call that needs its devices (the " +
                   (in_use.size() == 1 ? "other goes" : "others go") + " on). "
                   "Each copy has its own devices, host configuration and allocations: device ids, "
                   "buffers and streams of one are wrong in another. A copy is the static "
                   "libringkernel_runtime.a linked into a program or shared object that does not "
                   "share it (a dlopen'ed plugin, modules loaded with RTLD_LOCAL, a library linked "
                   "with --exclude-libs or a version script): build RingKernel with "
                   "-DBUILD_SHARED_LIBS=ON and link all of them against that one shared runtime "
                   "(docs/cmake.md, \"One runtime per process\")");
}

#else

std::optional<Error> claim_runtime_copy() { return std::nullopt; }

#endif

}  // namespace ringkernel::detail
