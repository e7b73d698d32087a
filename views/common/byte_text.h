#pragma once
// Byte counts as the views print them. Data moved or stored in DDR in SI
// units ("999 B", "1.5 kB", "25.3 MB"), as bandwidths are; the sizes of
// on-chip buffers in binary units ("56 KiB", "8 MiB"), as the architecture
// files and hardware manuals give them, so that a 64 KiB L1 reads as 64.

#include <QString>

#include <cstdint>

namespace stagecraft::views {

QString formatBytes(int64_t bytes);
/// "512 B", "56 KiB", "49.1 KiB", "8 MiB": one decimal, none when whole.
QString formatBufferBytes(int64_t bytes);

} // namespace stagecraft::views
