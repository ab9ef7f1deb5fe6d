// Copyright RingKernel authors.
// PeerMemory's peer mappings: map_peer_memory / unmap_peer_memory, the process-wide table of live
// mappings, and disable_peer_access, which that table can refuse.
#include "ringkernel/peer_memory.h"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "device_pair.h"
#include "pointer_text.h"
#include "registry.h"
#include "ringkernel/error.h"

namespace ringkernel {

namespace {

using detail::hex;
using detail::Registry;

/// The live peer mappings of every PeerMemory: peer access is process-wide state, so
/// disable_peer_access must see the mappings another PeerMemory made (a P2P queue's, say), and
/// "access checked and mapping recorded" must be one step against every disabler.
struct Mapping {
  int local_device = -1;
  std::size_t count = 0;  // map_peer_memory calls not yet ended by unmap_peer_memory
  std::size_t bytes = 0;  // the largest range mapped (for error messages)
  std::weak_ptr<detail::DeviceBackend> backend;  // of the devices the ids named then
};
// The backend is part of the key (its serial: a later backend may take a destroyed one's address):
// after configure_host_backend() an id and an address can name another configuration's device and
// memory, and a mapping of the new one must not replace (and so drop the count of) a live mapping
// of the old one at the same address.
struct MappingKey {
  const PeerMemory* owner;
  const void* pointer;
  int remote_device;
  std::uint64_t backend;
  auto operator<=>(const MappingKey&) const = default;
};
struct MappingTable {
  std::mutex mutex;
  std::map<MappingKey, Mapping> entries;
};
MappingTable& mapping_table() {
  static auto* table = new MappingTable;  // never destroyed: PeerMemory objects of static storage use it at exit
  return *table;
}

}  // namespace

PeerMemory::~PeerMemory() {
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  std::erase_if(table.entries, [this](const auto& entry) { return entry.first.owner == this; });
}

void PeerMemory::disable_peer_access(int src, int dst) {
  constexpr const char* call = "PeerMemory::disable_peer_access";
  const auto p = detail::resolve_device_pair(src, dst, call);
  if (src == dst)
    throw Error(errc::invalid_argument, call, src, "source and destination are the same device");
  // Mappings of dst's memory for src block it; the error lists the first few.
  constexpr std::size_t listed_max = 3;
  struct Listed {
    const void* pointer;
    std::size_t bytes;
    std::size_t count;
    bool ours;
  };
  std::vector<Listed> listed;
  std::size_t live = 0;
  // Held until access is off: a map_peer_memory of another thread (of any PeerMemory), which
  // checks access under the same lock, then either comes first (and refuses this call) or sees
  // access disabled.
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  for (const auto& [key, value] : table.entries) {
    if (key.remote_device != src || value.local_device != dst || value.backend.lock() != p.src.backend) continue;
    live += value.count;
    if (listed.size() < listed_max) listed.push_back({key.pointer, value.bytes, value.count, key.owner == this});
  }
  if (live != 0) {
    std::string list;
    std::size_t shown = 0;
    for (const auto& m : listed) {
      list += (list.empty() ? "" : ", ") + hex(m.pointer) + " (" + std::to_string(m.bytes) + " bytes";
      if (m.count > 1) list += ", mapped " + std::to_string(m.count) + " times";
      if (!m.ours) list += ", by another PeerMemory (a P2PMessageQueue's, for one)";
      // A hint only: an address freed and allocated again looks allocated.
      if (p.src.backend->owner_of(m.pointer) != p.dst.ordinal) list += ", no longer allocated";
      list += ')';
      shown += m.count;
    }
    if (shown < live) list += " and " + std::to_string(live - shown) + " more";
    throw Error(errc::invalid_state, call, src,
                "peer access from device " + std::to_string(src) + " to device " + std::to_string(dst) +
                    " is still used by " + std::to_string(live) + " live mapping" + (live == 1 ? "" : "s") +
                    " of device " + std::to_string(dst) + "'s memory: " + list +
                    (live == 1 ? "; end it with unmap_peer_memory(" + hex(listed[0].pointer)
                               : std::string("; end each with unmap_peer_memory(pointer")) +
                    ", " + std::to_string(src) + ")" +
                    (std::any_of(listed.begin(), listed.end(), [](const Listed& m) { return !m.ours; })
                         ? " on the PeerMemory that made it, or destroy the P2PMessageQueue that owns it,"
                         : "") +
                    " first (a mapping stays live until then, also after its memory is freed)");
  }
  p.src.backend->disable_peer_access(p.src.ordinal, p.dst.ordinal, src, dst);
}

void* PeerMemory::map_peer_memory(void* local, int local_device, int remote_device, std::size_t bytes) {
  constexpr const char* call = "PeerMemory::map_peer_memory";
  const auto p = detail::resolve_device_pair(local_device, remote_device, call);
  if (local_device == remote_device)
    throw Error(errc::invalid_argument, call, local_device,
                "local and remote device are the same; the memory is accessible without a mapping");
  if (bytes == 0) throw Error(errc::invalid_argument, call, local_device, "cannot map 0 bytes");
  detail::check_device_memory(p.src, local, bytes, call, "local memory", detail::DeviceMemoryUse::mapping);
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);  // access checked and mapping recorded as one step (disable_peer_access)
  if (!p.src.backend->peer_access_enabled(p.dst.ordinal, p.src.ordinal)) {
    const bool supported = p.src.backend->link(p.dst.ordinal, p.src.ordinal).peer_access_supported;
    throw Error(supported ? errc::invalid_state : errc::peer_access_unsupported, call, remote_device,
                "peer access from device " + std::to_string(remote_device) + " to device " +
                    std::to_string(local_device) +
                    (supported ? " is not enabled; call enable_peer_access(" + std::to_string(remote_device) +
                                     ", " + std::to_string(local_device) + ") first"
                               : " is not supported by the topology; memory cannot be mapped, copy it instead"));
  }
  auto& entry = table.entries[MappingKey{this, local, remote_device, p.src.backend->serial()}];
  if (entry.count == 0) entry = Mapping{local_device, 0, 0, p.src.backend};
  ++entry.count;
  entry.bytes = std::max(entry.bytes, bytes);
  return local;  // unified addressing: the peer uses the same address
}

void PeerMemory::unmap_peer_memory(void* mapped, int remote_device) {
  constexpr const char* call = "PeerMemory::unmap_peer_memory";
  // The devices the id names now, if it names one: an old mapping stays unmappable after a
  // configuration with fewer devices.
  std::optional<std::uint64_t> current;
  std::optional<Error> unknown_id;
  try {
    current = Registry::instance().resolve(remote_device, call).backend->serial();
  } catch (const Error& e) {
    if (e.code() != errc::invalid_device) throw;
    unknown_id = e;
  }
  if (!mapped) throw Error(errc::invalid_argument, call, remote_device, "mapped pointer is null");
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  // The mapping of the devices the id names now, else one made under an earlier host configuration.
  auto it = current ? table.entries.find(MappingKey{this, mapped, remote_device, *current}) : table.entries.end();
  if (it == table.entries.end()) {
    it = std::find_if(table.entries.begin(), table.entries.end(), [&](const auto& entry) {
      return entry.first.owner == this && entry.first.pointer == mapped && entry.first.remote_device == remote_device;
    });
  }
  if (it == table.entries.end() && unknown_id) throw *unknown_id;
  if (it == table.entries.end())
    throw Error(errc::invalid_state, call, remote_device,
                hex(mapped) + " is not mapped for device " + std::to_string(remote_device) +
                    " (already unmapped, or never mapped by this PeerMemory)");
  if (--it->second.count == 0) table.entries.erase(it);
}

std::size_t PeerMemory::live_mappings() const {
  auto& table = mapping_table();
  std::lock_guard lock(table.mutex);
  std::size_t n = 0;
  for (const auto& [key, value] : table.entries) {
    if (key.owner == this) n += value.count;
  }
  return n;
}

}  // namespace ringkernel
