"""Draws the package icon (icon.png, 128x128): three task lanes, the middle one done first. Needs only Python 3."""
import struct
import zlib

SIZE = 128
BACK, LANE, FAST = (31, 78, 121, 255), (156, 195, 230, 255), (255, 217, 102, 255)


def inside_rounded(x, y, left, top, right, bottom, radius):
    if not (left <= x < right and top <= y < bottom):
        return False
    cx = min(max(x, left + radius), right - radius)
    cy = min(max(y, top + radius), bottom - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def near_segment(x, y, ax, ay, bx, by, width):
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= (width / 2) ** 2


def pixel(x, y):
    if near_segment(x, y, 82, 52, 96, 64, 7) or near_segment(x, y, 96, 64, 82, 76, 7):
        return FAST
    if inside_rounded(x, y, 22, 58, 74, 70, 6):
        return FAST
    if inside_rounded(x, y, 22, 30, 106, 42, 6) or inside_rounded(x, y, 22, 86, 92, 98, 6):
        return LANE
    if inside_rounded(x, y, 4, 4, 124, 124, 18):
        return BACK
    return (0, 0, 0, 0)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


rows = b"".join(b"\0" + b"".join(bytes(pixel(x + 0.5, y + 0.5)) for x in range(SIZE)) for y in range(SIZE))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
with open("icon.png", "wb") as out:
    out.write(png)
