"""Write the inspect-ai fixtures of tests/test_harnesses.py with inspect-ai's own writer.

Run with inspect-ai 0.3.260 installed (it is not a dependency of pairedstats):

    python tests/reference/harnesses/inspect/make_logs.py              # these fixtures
    python tests/reference/harnesses/inspect/make_logs.py src/pairedstats/data/inspect eval

No model is called: each "model" is inspect-ai's mockllm provider replaying fixed answers,
so the scores are known before the run. Two models (``mockllm/kestrel`` first, then
``mockllm/atlas``: not in sorted order), one task ``arith`` of 5 questions in two subjects,
2 epochs, two scorers: ``match`` (C/I) and ``closeness`` (a float). ``kestrel`` is written
as an ``.eval`` log, ``atlas`` as a ``.json`` log (both ``.eval`` with the argument ``eval``:
the example bundled with pairedstats, :func:`pairedstats.datasets.inspect_example_folder`,
whose zip members are then stored again with Deflate, as inspect-ai wrote them before it
moved to Zstandard, so that any Python's zipfile reads them).
"""

import sys
import zipfile
from pathlib import Path

import tiktoken
from inspect_ai import Task, eval, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import Score, Target, match, mean, scorer
from inspect_ai.solver import TaskState, generate

HERE = Path(__file__).parent
QUESTIONS = [("q1", "1+1", "2", "add"), ("q2", "2+3", "5", "add"), ("q3", "3*3", "9", "mul"),
             ("q4", "2*4", "8", "mul"), ("q5", "7+1", "8", "add")]  # fmt: skip
#: the answers of each model, per epoch, in the order of the questions
ANSWERS = {
    "kestrel": [["2", "5", "6", "8", "8"], ["2", "4", "9", "8", "8"]],
    "atlas": [["2", "1", "6", "3", "8"], ["3", "1", "9", "3", "8"]],
}


@scorer(metrics=[mean()])
def closeness():
    async def score(state: TaskState, target: Target) -> Score:
        got = float(state.output.completion)
        return Score(value=1.0 / (1.0 + abs(got - float(target.text))))

    return score


@task
def arith():
    samples = [Sample(id=i, input=q, target=t, metadata={"subject": s})
               for i, q, t, s in QUESTIONS]  # fmt: skip
    return Task(dataset=samples, solver=generate(), scorer=[match(), closeness()])


class _Words:
    """A tokenizer of whitespace-separated words: mockllm counts the tokens of its answers
    with tiktoken, whose encoding is downloaded on first use; offline, words stand in (the
    token counts in the logs' usage fields are words, nothing the fixtures test)."""

    def encode(self, text, **_):
        return text.split()


def main(folder=HERE, second="json"):
    tiktoken.get_encoding = lambda name: _Words()
    for name, fmt in (("kestrel", "eval"), ("atlas", second)):
        outputs = [ModelOutput.from_content(f"mockllm/{name}", a)
                   for epoch in ANSWERS[name] for a in epoch]  # fmt: skip
        model = get_model(f"mockllm/{name}", custom_outputs=outputs)
        eval(arith(), model=model, epochs=2, log_dir=str(folder), log_format=fmt,
             max_samples=1, display="none")  # fmt: skip
    if second == "eval":
        for path in Path(folder).glob("*.eval"):
            with zipfile.ZipFile(path) as archive:  # inspect-ai made zipfile read Zstandard
                members = [(info.filename, archive.read(info)) for info in archive.infolist()]
            with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                for name, data in members:
                    archive.writestr(name, data)


if __name__ == "__main__":
    main(*sys.argv[1:])
