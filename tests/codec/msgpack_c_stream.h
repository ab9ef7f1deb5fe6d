// Copyright RingKernel authors.
// A msgpack-c packer writing into its own growing buffer (msgpack_sbuffer), for tests that compare
// ringkernel's bytes with what msgpack-c writes.
#pragma once

#include <msgpack.h>

#include "codec_test_support.h"

namespace codec_test {

class msgpack_c_stream {
 public:
  msgpack_c_stream() {
    msgpack_sbuffer_init(&buffer_);
    msgpack_packer_init(&pk_, &buffer_, msgpack_sbuffer_write);
  }
  ~msgpack_c_stream() { msgpack_sbuffer_destroy(&buffer_); }
  msgpack_c_stream(const msgpack_c_stream&) = delete;
  msgpack_c_stream& operator=(const msgpack_c_stream&) = delete;

  msgpack_packer* pk() { return &pk_; }
  bytes data() const { return bytes(buffer_.data, buffer_.data + buffer_.size); }

 private:
  msgpack_sbuffer buffer_;
  msgpack_packer pk_;
};

}  // namespace codec_test
