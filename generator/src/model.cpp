// Copyright RingKernel authors.
#include "model.h"

namespace ringkernel::gen {

const char* runtimeName(FieldKind kind) {
  switch (kind) {
    case FieldKind::Boolean: return "boolean";
    case FieldKind::Character: return "character";
    case FieldKind::Int8: return "int8";
    case FieldKind::Int16: return "int16";
    case FieldKind::Int32: return "int32";
    case FieldKind::Int64: return "int64";
    case FieldKind::UInt8: return "uint8";
    case FieldKind::UInt16: return "uint16";
    case FieldKind::UInt32: return "uint32";
    case FieldKind::UInt64: return "uint64";
    case FieldKind::Float32: return "float32";
    case FieldKind::Float64: return "float64";
    case FieldKind::Enumeration: return "enumeration";
    case FieldKind::Message: return "message";
    case FieldKind::Byte: return "byte";
    case FieldKind::Char8: return "char8";
  }
  return "unknown";
}

bool signedOnTheWire(FieldKind kind) {
  switch (kind) {
    case FieldKind::Character:
    case FieldKind::Int8:
    case FieldKind::Int16:
    case FieldKind::Int32:
    case FieldKind::Int64: return true;
    default: return false;
  }
}

const char* fixedWidthType(FieldKind kind) {
  switch (kind) {
    case FieldKind::Boolean: return "bool";
    case FieldKind::Character: return "char";
    case FieldKind::Int8: return "std::int8_t";
    case FieldKind::Int16: return "std::int16_t";
    case FieldKind::Int32: return "std::int32_t";
    case FieldKind::Int64: return "std::int64_t";
    case FieldKind::UInt8: return "std::uint8_t";
    case FieldKind::UInt16: return "std::uint16_t";
    case FieldKind::UInt32: return "std::uint32_t";
    case FieldKind::UInt64: return "std::uint64_t";
    case FieldKind::Float32: return "float";
    case FieldKind::Float64: return "double";
    case FieldKind::Byte: return "std::byte";
    case FieldKind::Char8: return "char8_t";
    case FieldKind::Enumeration:
    case FieldKind::Message: return "";
  }
  return "";
}

const char* runtimeName(Direction direction) {
  switch (direction) {
    case Direction::Input: return "input";
    case Direction::Output: return "output";
    case Direction::KernelToKernel: return "kernel_to_kernel";
    case Direction::Bidirectional: return "bidirectional";
  }
  return "bidirectional";
}

const char* runtimeName(WireFormat format) {
  return format == WireFormat::Map ? "map" : "array";
}

}  // namespace ringkernel::gen
