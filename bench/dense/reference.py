"""Reference vectors for `search::dense` (tests/dense.rs), computed by WordLlama's own code.

    python bench/dense/reference.py WORDLLAMA_FOLDER > tests/data/dense_reference.json

WORDLLAMA_FOLDER is the `wordllama/` folder of PyPI's `wordllama` wheel (MIT; `pip download
--no-deps wordllama` and unzip it): its `weights/l2_supercat_256.safetensors` and
`tokenizers/l2_supercat_tokenizer_config.json` are read with the package's `WordLlamaInference`
(the package's `WordLlama.load` looks for the tokenizer under `tokenizer/` and would download
it, so the two files are given to the inference class directly, as `load` does after resolving
them). Needs `pip install wordllama` (numpy, safetensors, tokenizers). Prints, for each text,
its token ids and the first 16 components of `embed(text, norm=True)`, and the cosine of a few
pairs; only these numbers are committed, never the weights.
"""

import json
import logging
import sys
from pathlib import Path

import numpy as np
from safetensors import safe_open
from tokenizers import Tokenizer
from wordllama.inference import WordLlamaInference

TEXTS = [
    "What's the current weather in London?",
    "save it to /root/notes.md",
    "create_presentation. ppt. Create a new PowerPoint presentation. id",
    "get Current Weather",
    "Zürich 天气 getCurrentWeather",
    "where to park near the stadium",
    "find parking facilities. Find parking facilities near a location. latitude longitude radius",
    "a",
]

PAIRS = [(0, 3), (1, 2), (5, 6), (5, 0)]


def main(folder: str) -> None:
    logging.disable(logging.INFO)
    d = Path(folder)
    with safe_open(str(d / "weights" / "l2_supercat_256.safetensors"), framework="np") as f:
        table = f.get_tensor("embedding.weight")
    tok = Tokenizer.from_file(str(d / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    wl = WordLlamaInference(table, tok)
    vecs = wl.embed(TEXTS, norm=True)
    out = {
        "model": "wordllama 0.4.0.post1 l2_supercat_256",
        "dims": int(vecs.shape[1]),
        "texts": [
            {
                "text": t,
                "ids": wl.tokenize(t)[0].ids,
                "head": [round(float(x), 6) for x in vecs[i][:16]],
                "norm": round(float(np.linalg.norm(vecs[i])), 6),
            }
            for i, t in enumerate(TEXTS)
        ],
        "cosines": [
            {"a": a, "b": b, "cosine": round(float(vecs[a] @ vecs[b]), 6)} for a, b in PAIRS
        ],
    }
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
