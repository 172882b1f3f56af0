"""Hostile scenario files through the real command line (``python -m netbenefit evaluate FILE``).

Each file is one that a safe loader must refuse quickly and cleanly: YAML tags that would build
Python objects (they must never run: a sentinel file they would create never appears), an alias
bomb, self-referring aliases, deep nesting, a 20 MB file, devices and folders where a file is
expected, a CSV path leaving the scenario's folder, bytes that are not UTF-8. For each: exit 2,
nothing on stdout, one line on stderr naming the file (and the key where there is one), within
10 s and 2 GiB of address space, and no file written. The runs go two at a time.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fuzz.fuzz_support import (
    assert_one_clean_error_line,
    dump,
    files_under,
    run_cli_in_process,
    run_cli_subprocess,
)

VALID = {
    "name": "Hostile input",
    "application_date": "2026-06-01",
    "discount_rate": 0.05,
    "facility": {
        "portions": [{"use": "other", "work": "rehabilitation", "gross_leasable_area_sqft": 1000}],
        "accommodates_share": 1.0,
    },
    "jobs": {"new": 40, "nj_withholding_share": 1.0},
    "award": {"annual_credit": 100000},
    "streams": [{"name": "state taxes", "kind": "revenue", "by_year": {1: 1000000, 2: 1000000}}],
}
VALID_TEXT = dump(VALID)


def with_line(old: str, new: str) -> str:
    if old not in VALID_TEXT:
        raise ValueError(f"{old!r} is not a line of the valid scenario")
    return VALID_TEXT.replace(old, new)


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """The "billion laughs": each level is a list of `width` aliases of the previous one."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + f"\nname: *l{levels - 1}\n"


def csv_stream(path: str) -> str:
    return with_line(
        "  by_year:\n    1: 1000000\n    2: 1000000\n",
        f"  from_csv: {path}\n",
    )


def sentinel_tags(sentinel: Path) -> dict[str, str]:
    command = f"touch {sentinel}"
    return {
        "python_object_apply": f"name: !!python/object/apply:os.system ['{command}']\n",
        "python_object_apply_subprocess": f"name: !!python/object/apply:subprocess.call [['touch', '{sentinel}']]\n",
        "python_object_new": f"name: !!python/object/new:os.system ['{command}']\n",
        "python_name": "name: !!python/name:os.system\n",
        "python_module": "name: !!python/module:os\n",
        "python_object_in_key": f"? !!python/object/apply:os.system ['{command}']\n: 1\n",
        "python_tag_deep_inside": with_line("  new: 40\n", f"  new: !!python/object/apply:os.system ['{command}']\n"),
    }


def build_cases(folder: Path) -> dict[str, tuple[Path, str | None]]:
    """name -> (file to evaluate, key the error must name or None)."""
    sentinel = folder / "SENTINEL"
    data = folder / "data"
    data.mkdir()
    (data / "folder.csv").mkdir()
    os.symlink("/dev/zero", data / "zero.csv")
    os.symlink(data / "loop.csv", data / "loop.csv")
    os.mkfifo(data / "pipe.csv")
    (data / "nan.csv").write_text("year,amount\n1,nan\n")
    (data / "negative.csv").write_text("year,amount\n1,-5\n")
    (data / "duplicate.csv").write_text("year,amount\n1,5\n1,6\n")
    (data / "bad_header.csv").write_text("when,how much\n1,5\n")
    (data / "bad_row.csv").write_text("year,amount\n1,5,7\n")
    (data / "huge_year.csv").write_text("year,amount\n" + "9" * 5000 + ",5\n")
    (data / "superscript_year.csv").write_text("year,amount\n\u00b2,5\n", encoding="utf-8")
    (data / "latin1.csv").write_bytes("year,amount\n1,5\n# caf\xe9\n".encode("latin-1"))
    with open(data / "big.csv", "w") as handle:
        handle.write("year,amount\n")
        handle.write("1,5\n" * 300_000)

    texts: dict[str, tuple[str | bytes, str | None]] = {
        "empty": ("", None),
        "blank_document": ("---\n", None),
        "a_list": ("- 1\n- 2\n", None),
        "a_scalar": ("42\n", None),
        "a_string": ("just some words\n", None),
        "binary_junk": (bytes(range(256)) * 64, None),
        "not_utf8": ("name: Caf\xe9\n".encode("latin-1"), None),
        "utf16": (VALID_TEXT.encode("utf-16"), None),
        "nul_byte": (VALID_TEXT + "\x00", None),
        "duplicate_key": (VALID_TEXT + "discount_rate: 0.07\n", None),
        "two_documents": (VALID_TEXT + "---\n" + VALID_TEXT, None),
        "alias_bomb": (alias_bomb(), None),
        "alias_bomb_in_a_valid_file": (
            alias_bomb(8).replace("name: *l7\n", "") + with_line("name: Hostile input\n", "name: *l7\n"),
            None,
        ),
        "recursive_alias": (with_line("  new: 40\n", "  new: &loop [*loop]\n"), None),
        "deep_nesting": ("name: " + "[" * 20_000 + "]" * 20_000 + "\n", None),
        "deep_mapping_nesting": ("name:\n" + "".join(" " * i + "a:\n" for i in range(1, 3000)), None),
        "float_1e400": (with_line("discount_rate: 0.05\n", "discount_rate: 1.0e+400\n"), "discount_rate"),
        "int_10_pow_400": (with_line("  new: 40\n", f"  new: {10**400}\n"), "jobs.new"),
        "year_10_pow_400": (with_line("    1: 1000000\n", f"    {10**400}: 1000000\n"), "streams.0.by_year"),
        "minus_1e308": (with_line("  annual_credit: 100000\n", "  annual_credit: -1.0e+308\n"), "award.annual_credit"),
        "nan": (with_line("discount_rate: 0.05\n", "discount_rate: .nan\n"), "discount_rate"),
        "impossible_date": (with_line("application_date: '2026-06-01'\n", "application_date: 2026-13-45\n"), None),
        "bad_timestamp_tag": (with_line("discount_rate: 0.05\n", "discount_rate: !!timestamp soon\n"), None),
        "bad_float_tag": (with_line("discount_rate: 0.05\n", "discount_rate: !!float five\n"), None),
        "control_characters_in_key": (VALID_TEXT + '"dis\\ncount\\x1b[2J\\u2028rate": 1\n', None),
        "unicode_key": (VALID_TEXT + "d\u00edscount_r\u0430te: 1\n", None),
        "extra_key_deep": (
            with_line("  gross_leasable_area_sqft: 1000\n", "  gross_leasable_area_sqft: 1000\n    colour: red\n"),
            None,
        ),
        "csv_folder": (csv_stream("data/folder.csv"), "streams.0.from_csv"),
        "csv_dev_zero_symlink": (csv_stream("data/zero.csv"), "streams.0.from_csv"),
        "csv_dev_zero_absolute": (csv_stream("/dev/zero"), "streams.0.from_csv"),
        "csv_fifo": (csv_stream("data/pipe.csv"), "streams.0.from_csv"),
        "csv_symlink_loop": (csv_stream("data/loop.csv"), "streams.0.from_csv"),
        "csv_outside_the_folder": (csv_stream("../../../etc/passwd"), "streams.0.from_csv"),
        "csv_missing": (csv_stream("data/missing.csv"), "streams.0.from_csv"),
        "csv_nan": (csv_stream("data/nan.csv"), "streams.0.from_csv"),
        "csv_negative": (csv_stream("data/negative.csv"), "streams.0.from_csv"),
        "csv_duplicate_year": (csv_stream("data/duplicate.csv"), "streams.0.from_csv"),
        "csv_bad_header": (csv_stream("data/bad_header.csv"), "streams.0.from_csv"),
        "csv_bad_row": (csv_stream("data/bad_row.csv"), "streams.0.from_csv"),
        "csv_huge_year": (csv_stream("data/huge_year.csv"), "streams.0.from_csv"),
        "csv_superscript_year": (csv_stream("data/superscript_year.csv"), "streams.0.from_csv"),
        "csv_not_utf8": (csv_stream("data/latin1.csv"), "streams.0.from_csv"),
        "csv_too_large": (csv_stream("data/big.csv"), "streams.0.from_csv"),
    }
    for name, text in sentinel_tags(sentinel).items():
        texts[name] = (text, None)

    cases: dict[str, tuple[Path, str | None]] = {}
    for name, (content, key) in texts.items():
        path = folder / f"{name}.yaml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        cases[name] = (path, key)

    large = folder / "very_large.yaml"
    with open(large, "w", encoding="utf-8") as handle:
        handle.write(VALID_TEXT)
        line = "# " + "x" * 1021 + "\n"
        for _ in range(20 * 1024):  # 20 MiB of comment lines
            handle.write(line)
    cases["very_large_20_mb"] = (large, None)
    cases["a_folder"] = (data, None)
    cases["missing_file"] = (folder / "missing.yaml", None)
    cases["dev_zero"] = (Path("/dev/zero"), None)
    cases["fifo_as_scenario"] = (data / "pipe.csv", None)
    return cases


def _case_names() -> list[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return sorted(build_cases(Path(folder)))


CASE_NAMES = _case_names()


#: Cases that could hang, exhaust memory or run code if the loader were not safe: each runs in its
#: own process (``python -m netbenefit``) under the time and memory bounds; the others run the same
#: command through ``netbenefit.cli.main`` in this process, which is much faster.
IN_A_CHILD_PROCESS = {
    "alias_bomb",
    "alias_bomb_in_a_valid_file",
    "recursive_alias",
    "deep_nesting",
    "very_large_20_mb",
    "dev_zero",
    "fifo_as_scenario",
    "csv_dev_zero_symlink",
    "csv_fifo",
    "python_object_apply",
    "python_object_apply_subprocess",
    "python_object_new",
    "binary_junk",
    "control_characters_in_key",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every case, run once through the command line, with the files around it."""
    folder = tmp_path_factory.mktemp("hostile")
    cases = build_cases(folder)
    before = files_under(folder)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            name: pool.submit(run_cli_subprocess, path, folder)
            for name, (path, _) in cases.items()
            if name in IN_A_CHILD_PROCESS
        }
        results = {name: run_cli_in_process(path) for name, (path, _) in cases.items() if name not in futures}
        results.update({name: future.result() for name, future in futures.items()})
    return {"folder": folder, "cases": cases, "results": results, "before": before, "after": files_under(folder)}


@pytest.mark.parametrize("name", CASE_NAMES)
def test_a_hostile_file_ends_in_exit_2_and_one_line_naming_the_file(runs, name):
    path, key = runs["cases"][name]
    assert_one_clean_error_line(runs["results"][name], path, key)


def test_the_dangerous_cases_are_cases(runs):
    assert IN_A_CHILD_PROCESS <= set(runs["cases"])


def test_yaml_tags_that_would_run_code_never_run(runs):
    assert not (runs["folder"] / "SENTINEL").exists()
    assert all("python/" in runs["results"][name].stderr for name in sentinel_tags(Path("x")))


def test_no_hostile_file_makes_the_command_write_a_file(runs):
    assert runs["after"] == runs["before"]


def test_the_alias_bomb_is_refused_for_its_expansion(runs):
    assert "aliases expand to more than" in runs["results"]["alias_bomb"].stderr


def test_the_20_mb_file_is_refused_for_its_size_before_it_is_parsed(runs):
    assert "larger than" in runs["results"]["very_large_20_mb"].stderr
