"""What is made from the method registry (``tests/generated.py``: the stubs, the help in
docs/cli.md, the lists of docs/api.rst, the method folders of docs/architecture.md's map) is
current, and one command rewrites it: ``python -m tests.generated --write``."""

import shutil

import pytest
from tests import generated

from pairedstats import _stubs


def _parts() -> list[str]:
    names = [generated._stub_name(p) for p in _stubs.stubs()]
    for page in generated.PAGES:
        markers = generated.PAGES[page][0]
        text = (generated.ROOT / page).read_text()
        names += [f"{page}: {name}" for name in generated.blocks(text, markers, page)]
    return names


@pytest.mark.parametrize("part", _parts())
def test_every_generated_part_is_current(part):
    if part == f"{generated.CLI}: help" and not generated.HELP_CURRENT:
        pytest.skip("argparse 3.13 lays the help out anew")
    assert part not in generated.stale(part), f"{part} is stale: run `{generated.COMMAND}`"


def test_the_generated_lists_name_every_method_and_export():
    parts = _parts()
    blocks = [p.split(": ", 1)[1] for p in parts if p.startswith(generated.API)]
    assert blocks == [
        "dataframe-accessor", "dataset-accessor", "dataarray-accessor", "functions", "results",
        "warnings",
    ]  # fmt: skip
    text = (generated.ROOT / generated.API).read_text()
    made = "\n".join(generated.api_blocks(text).values())
    assert "DataArray.paired.signtest" in made
    assert "   SigntestResult" in made
    assert "   Report" not in made  # its own section, written by hand
    assert "    signtest/      Paired sign test" in generated.map_blocks("")["method-folders"]


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A copy of the docs and the stubs, where the command reads and writes."""
    for page in generated.PAGES:
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(generated.ROOT / page, tmp_path / page)
    package = tmp_path / "src" / "pairedstats"
    package.mkdir(parents=True)
    for path in _stubs.stubs():
        shutil.copy(path, package / path.name)
    monkeypatch.setattr(generated, "ROOT", tmp_path)
    monkeypatch.setattr(_stubs, "PACKAGE", package)
    generated.write()  # current, whatever the checkout's state
    return tmp_path


def test_check_lists_what_is_stale_and_write_rewrites_it(checkout, capsys):
    api = checkout / generated.API
    api.write_text(api.read_text().replace("   signtest_design\n", ""))
    stub = checkout / "src" / "pairedstats" / "accessors.pyi"
    stub.write_text(stub.read_text() + "# edited\n")
    page = checkout / generated.ARCHITECTURE
    page.write_text(page.read_text().replace("    signtest/ ", "    sgntest/ "))
    assert generated.main(["--check"]) == 1
    err = capsys.readouterr().err
    for part in ("docs/api.rst: functions", "src/pairedstats/accessors.pyi",
                 "docs/architecture.md: method-folders"):  # fmt: skip
        assert f"stale: {part}\n" in err
    assert "docs/api.rst: results" not in err
    assert generated.COMMAND in err
    capsys.readouterr()
    assert generated.main(["--write"]) == 0
    written = capsys.readouterr().out
    assert written.splitlines() == [
        "wrote src/pairedstats/accessors.pyi", f"wrote {generated.API}",
        f"wrote {generated.ARCHITECTURE}",
    ]  # fmt: skip
    assert generated.main(["--check"]) == 0
    assert "   signtest_design\n" in api.read_text()


def test_a_misplaced_or_missing_block_is_refused():
    text = (generated.ROOT / generated.API).read_text()
    broken = text.replace(".. end generated\n", "", 1)
    with pytest.raises(ValueError, match="marker out of order"):
        generated.api_blocks(broken)
    gone = text.replace(generated.RST.begin.format("warnings"), "")
    gone = gone[: gone.rindex(generated.RST.end)]
    with pytest.raises(ValueError, match="has no generated block"):
        generated.replace_blocks(gone, generated.RST, generated.api_blocks(gone), generated.API)
