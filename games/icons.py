"""The site's app icons, drawn here: a playing card with the heart of `favicon.svg`, on the felt.

`manage.py make_icons` writes them into `games/static/games/icons/` (committed, so the site
serves them without running anything); `tests/test_installable.py` draws them again and
compares, so the files and this drawing never drift apart. Pure Python (a PNG is zlib and a
few CRCs): no image library, no outside asset.
"""

import struct
import zlib
from dataclasses import dataclass
from math import hypot

FELT = (0x0F, 0x51, 0x32)  # site.css --felt
CARD = (0xFF, 0xFF, 0xFF)
HEART = (0xC8, 0x10, 0x2E)  # site.css --accent, the favicon's red
SAMPLES = 3  # per side of a pixel: 9 samples smooth the edges


@dataclass(frozen=True)
class Icon:
    """One icon file: its name, its size in pixels, and whether it may be cropped to a shape
    (a maskable icon keeps everything inside the middle 80%)."""

    name: str
    size: int
    maskable: bool = False


ICONS = (
    Icon("icon-192.png", 192),
    Icon("icon-512.png", 512),
    Icon("maskable-512.png", 512, maskable=True),
    Icon("apple-touch-icon.png", 180),
)


def _in_heart(x: float, y: float) -> bool:
    """Whether a point of the favicon's 32x32 box is in its heart: the path
    M16 29 L3.5 16.6 A(to 16 6.5) A(to 28.5 16.6) Z, whose arcs are half circles (their
    radius, 7.5, is less than half the chord, so SVG widens it to that)."""
    left, right = (9.75, 11.55), (22.25, 11.55)
    radius = hypot(12.5, 10.1) / 2
    # Inside the quadrilateral under the two chords...
    corners = ((3.5, 16.6), (16.0, 6.5), (28.5, 16.6), (16.0, 29.0))
    inside = True
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        if (bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0:
            inside = False
            break
    if inside:
        return True
    # ... or in one of the half discs above them.
    return hypot(x - left[0], y - left[1]) <= radius or hypot(x - right[0], y - right[1]) <= radius


def _colour(icon: Icon, x: float, y: float) -> tuple[int, int, int]:
    """The colour at a point of the icon, in units of its side (0 to 1)."""
    # The card: upright, rounded, centred; smaller in a maskable icon (its safe zone).
    scale = 0.62 if icon.maskable else 0.8
    half_w, half_h, round_ = 0.36 * scale, 0.48 * scale, 0.07 * scale
    dx, dy = abs(x - 0.5) - (half_w - round_), abs(y - 0.5) - (half_h - round_)
    on_card = hypot(max(dx, 0.0), max(dy, 0.0)) <= round_ and max(dx, dy) <= round_
    if not on_card:
        return FELT
    # The heart, in the favicon's box scaled to 80% of the card's width.
    box = 2 * half_w * 0.8 / 32
    hx, hy = (x - 0.5) / box + 16, (y - 0.5) / box + 17
    return HEART if _in_heart(hx, hy) else CARD


def pixels(icon: Icon) -> bytes:
    """The icon's RGB rows, each with PNG's filter byte (none), averaged over samples."""
    size, rows = icon.size, bytearray()
    step = 1 / (size * SAMPLES)
    for row in range(size):
        rows.append(0)
        for column in range(size):
            red = green = blue = 0
            for sy in range(SAMPLES):
                y = (row * SAMPLES + sy + 0.5) * step
                for sx in range(SAMPLES):
                    r, g, b = _colour(icon, (column * SAMPLES + sx + 0.5) * step, y)
                    red, green, blue = red + r, green + g, blue + b
            count = SAMPLES * SAMPLES
            rows += bytes((round(red / count), round(green / count), round(blue / count)))
    return bytes(rows)


def png(icon: Icon) -> bytes:
    """The icon as a PNG file (8-bit RGB)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        checksum = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", checksum)

    header = struct.pack(">IIBBBBB", icon.size, icon.size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(pixels(icon), 9))
        + chunk(b"IEND", b"")
    )
