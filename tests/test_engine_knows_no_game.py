"""The interpreter knows no game: no game, piece or rule of one is named under interpreter/."""
import re
from pathlib import Path

from interpreter.load.files import bundled_ids

ROOT = Path(__file__).resolve().parent.parent
WORDS = (r"titanic|mythos|collapsible|sos[_ -]?titanic|funnel|iceberg|telegram|rumour|groom|latimer|murdoch|"
         r"lightoller|heart[_ ]of|star[_ ]card|flood[_ ]card|lifeboat|passenger|lifesaver|crowd|water[_ ]token|"
         r"tutorial|abandon ship")


def test_no_game_words_in_the_engine():
    pattern = re.compile(WORDS, re.I)
    ids = [re.escape(rid) for rid in bundled_ids()]
    assert len(ids) >= 5, "the bundled rulesets were not found"
    id_pattern = re.compile(r"\b(" + "|".join(ids) + r")\b")
    hits = []
    paths = [p for p in sorted((ROOT / "interpreter").rglob("*"))
             if p.suffix in (".py", ".lark") and "bundled" not in p.parts]
    assert len(paths) > 100, "the engine's modules were not found"
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line) or id_pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "the interpreter names a game:\n" + "\n".join(hits)
