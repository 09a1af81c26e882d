"""Pictures on card faces, decoded for drawing: the files `content.pictures` found, read as
untrusted input. `load` reads a picture's size from its header and refuses one of more than
`MAX_SIDE` pixels a side before Pillow decodes any pixel (a small file may claim a huge image).
"""
from __future__ import annotations

MAX_SIDE = 4096  # pixels: a card 63 mm wide at 1,600 dpi, far more than a printer or a screen needs


def load(path):
    """The picture in file `path`, decoded (a Pillow image in RGB or RGBA), or why not (a text).
    Its size is read from its header and refused beyond `MAX_SIDE` before any pixel is decoded."""
    try:
        from PIL import Image
    except ImportError:
        return "Pillow is not installed (pip install 'regles[sheets]')"
    try:
        with Image.open(path) as im:
            if im.format not in ("PNG", "JPEG"):
                return f"a {im.format} file, not a PNG or JPEG"
            if max(im.size) > MAX_SIDE:
                return f"{im.size[0]} x {im.size[1]} pixels, more than {MAX_SIDE} a side"
            im.load()
            return im.convert("RGBA" if im.mode in ("RGBA", "LA", "P") else "RGB")
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        return f"it does not read as a picture ({str(exc)[:80]})"
