"""Letters that look alike: a small part of Unicode's confusables data, for the scripts clubs type.

Unicode Technical Standard #39 (Unicode Security Mechanisms) gives each character that can
be mistaken for another a *prototype*, in its data file ``confusables.txt``; the *skeleton*
of a text is ``NFD(map every character to its prototype (NFD(text)))``, and two texts whose
skeletons are equal look alike. The whole file is 6,000 lines for every script; a nickname
board needs the letters of Latin, Cyrillic and Greek (the look-alikes a child can type on a
phone's keyboard: a Cyrillic "а" in "Łucjа"), and the few Latin look-alikes within one
script (1/l/I, 0/O, rn/m). The mappings below are those of confusables.txt (© Unicode,
Inc., under the Unicode License V3, which allows this use with this notice), each to its
prototype as the file gives it, for:

- Cyrillic letters (U+0400–U+04FF, U+0500–U+052F) whose prototype is a Latin letter or
  letters,
- Greek letters (U+0370–U+03FF) whose prototype is a Latin letter,
- within Latin: the digits 0 and 1, capital I, ``|``, ``m`` (→ ``rn``), ``w`` (→ ``vv``),
  and the letters with a stroke the file maps to a letter and a combining mark (ł, đ, ø).

Letters outside these scripts keep themselves (no table says a Chinese or Hangul nickname
looks like another), which errs towards letting a name in. ``tests/kiosk/test_confusables.py``
checks each mapping against the letter's Unicode name and the skeleton's examples.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# character: prototype (confusables.txt, "MA" table), as the file gives them.
PROTOTYPES: dict[str, str] = {
    # Latin look-alikes within Latin
    "0": "O",
    "1": "l",
    "I": "l",
    "|": "l",
    "ǀ": "l",
    "m": "rn",
    "w": "vv",
    "ł": "l\u0338",
    "Ł": "L\u0338",
    "đ": "d\u0335",
    "Đ": "D\u0335",
    "ø": "o\u0338",
    "Ø": "O\u0338",
    "ı": "i",
    "ſ": "f",
    # Cyrillic capitals
    "А": "A",
    "В": "B",
    "С": "C",
    "Е": "E",
    "Н": "H",
    "І": "l",
    "Ӏ": "l",
    "Ј": "J",
    "К": "K",
    "М": "M",
    "О": "O",
    "Р": "P",
    "Ѕ": "S",
    "Т": "T",
    "Х": "X",
    "Ү": "Y",
    "Ԍ": "G",
    "Ԝ": "W",
    "Ѵ": "V",
    # Cyrillic small letters
    "а": "a",
    "Ь": "b",
    "ь": "ƅ",  # the small soft sign's prototype is "ƅ" (tone six), not b
    "с": "c",
    "ԁ": "d",
    "е": "e",
    "һ": "h",
    "і": "i",
    "ӏ": "i",
    "ј": "j",
    "к": "k",
    "м": "rn",
    "п": "n",
    "о": "o",
    "р": "p",
    "ԛ": "q",
    "г": "r",
    "ѕ": "s",
    "т": "t",
    "ц": "u",
    "у": "y",
    "ү": "y",
    "ѵ": "v",
    "ԝ": "vv",
    "ѡ": "vv",
    "х": "x",
    "ӕ": "ae",
    "ꙇ": "i",
    # Greek capitals
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "l",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
    "Ϲ": "C",
    "Ϳ": "J",
    # Greek small letters
    "α": "a",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "σ": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "γ": "y",
    "ϲ": "c",
    "ϳ": "j",
    "π": "n",
}
_TABLE = str.maketrans(PROTOTYPES)


@lru_cache(maxsize=8192)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton of a text, for the letters above: equal skeletons look alike."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(_TABLE))
