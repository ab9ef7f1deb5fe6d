// Copyright RingKernel authors.
// One runtime per process (runtime_copies.h): this program and a plugin it loads (plugin.cpp) both
// link RingKernel::runtime. Usage: copies_check SCENARIO PLUGIN; exit status 0 if the scenario
// holds, 1 with the reasons on stderr if not. One scenario per process: the first use of the
// runtime decides which copy goes on.
//   second_copy_refused  the program uses its copy, then the plugin its own: the plugin's is refused
//   first_use_goes_on    the same the other way round: the plugin's copy goes on, the program's is refused
//   unused_copy          the plugin is loaded but never uses its copy: no error
//   one_runtime          the plugin's calls reach the program's runtime (the program exports it, or
//                        the runtime is a shared library): one configuration, no error
#include <dlfcn.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ringkernel/device.h"
#include "ringkernel/error.h"
#include "ringkernel/host_backend.h"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "FAILED: %s\n", what.c_str());
  ++failures;
}

struct Plugin {
  int (*host_devices)(int*, char*, std::size_t);
  int (*configure)(int, int*, char*, std::size_t);
  int (*host_status)(char*, std::size_t);
};

Plugin load(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", dlerror());
    std::exit(2);
  }
  return Plugin{reinterpret_cast<int (*)(int*, char*, std::size_t)>(dlsym(handle, "rk_plugin_host_devices")),
                reinterpret_cast<int (*)(int, int*, char*, std::size_t)>(dlsym(handle, "rk_plugin_configure")),
                reinterpret_cast<int (*)(char*, std::size_t)>(dlsym(handle, "rk_plugin_host_status"))};
}

std::string main_program() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path);
  return "the main program (" + std::string(path, n > 0 ? static_cast<std::size_t>(n) : 0) + ")";
}

/// The error of a refused copy: `in_use` is the copy in use first, `refused` the one that made the call.
void check_refusal(const std::string& message, const std::string& in_use, const std::string& refused) {
  const std::string head = "ringkernel: RingKernel runtime: bad configuration: 2 copies of the RingKernel runtime "
                           "are in use in this process: " + in_use + " and " + refused +
                           ", whose copy refuses every call that needs its devices (the other goes on). ";
  check(message.rfind(head, 0) == 0, "message \"" + message + "\" does not start with \"" + head + "\"");
  for (const char* fix : {"build RingKernel with -DBUILD_SHARED_LIBS=ON and link all of them against that one "
                          "shared runtime", "docs/cmake.md, \"One runtime per process\""})
    check(message.find(fix) != std::string::npos, "message \"" + message + "\" lacks \"" + fix + "\"");
}

std::size_t host_devices() { return ringkernel::devices(ringkernel::Backend::host).size(); }

void configure(int devices) {
  ringkernel::HostBackendConfig config;
  config.device_count = devices;
  ringkernel::configure_host_backend(config);
}

constexpr int configuration = static_cast<int>(ringkernel::errc::configuration);

void second_copy_refused(const Plugin& plugin, const std::string& path) {
  configure(2);
  check(host_devices() == 2, "the program's copy has 2 host devices");
  char message[4096] = "";
  int code = -1;
  check(plugin.host_devices(&code, message, sizeof message) == -1, "the plugin's devices() throws");
  check(code == configuration, "errc::configuration, got " + std::to_string(code));
  check_refusal(message, main_program(), path);
  const std::string first = message;
  code = -1;
  check(plugin.configure(3, &code, message, sizeof message) == -1 && code == configuration && first == message,
        "the plugin's configure_host_backend() throws the same error, got \"" + std::string(message) + "\"");
  check(plugin.host_status(message, sizeof message) == 0 && first == message,
        "the plugin's backend_statuses(): host unavailable, the error as note, got \"" + std::string(message) + "\"");
  configure(4);  // the program's copy goes on
  check(host_devices() == 4, "the program's copy still works");
}

void first_use_goes_on(const Plugin& plugin, const std::string& path) {
  char message[4096] = "";
  int code = -1;
  check(plugin.configure(3, &code, message, sizeof message) == 0, std::string("plugin configures: ") + message);
  check(plugin.host_devices(&code, message, sizeof message) == 3, "the plugin's copy has 3 host devices");
  try {
    host_devices();
    check(false, "no ringkernel::Error from the program's devices()");
  } catch (const ringkernel::Error& e) {
    check(e.code() == ringkernel::errc::configuration, "errc::configuration");
    check(e.call() == "RingKernel runtime", "call() \"" + e.call() + "\"");
    check_refusal(e.what(), path, main_program());
  }
  check(plugin.host_devices(&code, message, sizeof message) == 3, "the plugin's copy still works");
}

void unused_copy(const Plugin&, const std::string&) {
  configure(2);
  check(host_devices() == 2, "the program's copy has 2 host devices");
}

void one_runtime(const Plugin& plugin, const std::string&) {
  configure(2);
  char message[4096] = "";
  int code = -1;
  const int seen = plugin.host_devices(&code, message, sizeof message);
  check(seen == 2, "the plugin sees the program's 2 host devices, got " + std::to_string(seen) + " " + message);
  check(plugin.configure(5, &code, message, sizeof message) == 0, std::string("plugin configures: ") + message);
  check(host_devices() == 5, "the program sees the plugin's configuration of 5 host devices");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SCENARIO PLUGIN\n", argv[0]);
    return 2;
  }
  const std::string scenario = argv[1];
  const Plugin plugin = load(argv[2]);
  if (!plugin.host_devices || !plugin.configure || !plugin.host_status) {
    std::fprintf(stderr, "the plugin lacks its functions\n");
    return 2;
  }
  try {
    if (scenario == "second_copy_refused") second_copy_refused(plugin, argv[2]);
    else if (scenario == "first_use_goes_on") first_use_goes_on(plugin, argv[2]);
    else if (scenario == "unused_copy") unused_copy(plugin, argv[2]);
    else if (scenario == "one_runtime") one_runtime(plugin, argv[2]);
    else return std::fprintf(stderr, "unknown scenario %s\n", argv[1]), 2;
  } catch (const ringkernel::Error& e) {
    check(false, std::string("unexpected ringkernel::Error: ") + e.what());
  }
  if (failures == 0) std::printf("%s: passed\n", scenario.c_str());
  return failures == 0 ? 0 : 1;
}
