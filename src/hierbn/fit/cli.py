"""``hierbn fit``: a user's file in, a fitted network out (BIF or XMLBIF), with a progress bar
on long fits and a one-screen summary."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import yaml

DESCRIPTION = """\
Fit a discrete Bayesian network on a data file with one of the project's CPT estimators and
write it as BIF (.bif) or XMLBIF (.xml, .xmlbif), which pgmpy and bnlearn read.

The file is read as the panel reads a user's file: .csv (comma), .tsv (tab) with a header
row (quoted fields may hold commas and line breaks), or dense .arff; an empty field, ?, NA
and NaN are missing.

Column types: --categorical and --numeric name columns. Otherwise a column of numbers (an
.arff's numeric attribute too) is numeric when it has more than 20 distinct values and is
not a 0/1 indicator, and categorical with its numbers as states when it has 20 or fewer
(grades 1-4 stay four states; --numeric cuts them into bins instead); any other column is
categorical.
--states FILE (YAML or JSON: column -> list of values) gives a column its states even when
some are unobserved, as an .arff header does. A numeric column is cut into --bins: by the
supervised MDL rule against --target (the default, as the panel does), at its tertiles
(bnlearn's discretize default, and the default without a target) or into N equal-frequency
bins. A column left with one state (a single value, or a cut that found no point) is left out
and named in the summary; --keep-constant keeps it. A missing value is a state of its own
("missing") in the columns that have one.

Refused before any fit: a column with a distinct value in most rows (an identifier), a column
without any value, a value outside its declared states, a constant column with --learn, and a
family with more than --max-parent-configurations parent configurations. Node and state names
are made safe for BIF and XMLBIF (letters, digits and _; "<=50K" becomes "le_50K", the bin
(2.5, 7] "gt2p5_le7")."""

EXAMPLE = """\
example:
  hierbn fit --data ../shared/data/renatopp/arff-datasets/classification/credit.g.arff \\
      --target class --structure tan --estimator hier --out credit-g.bif"""

SUMMARY_ROWS = 25  # nodes listed in the summary; the largest CPTs when there are more


def _setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, e.g. iterations=5000; got {text!r}")
    return key, yaml.safe_load(value)


def _columns(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected COL[,COL...]; got {text!r}")
    return names


def read_states(path: Path) -> dict[str, list[Any]]:
    """The ``--states`` file: a YAML or JSON mapping of column -> list of values, refused
    naming the file when it is not one."""
    if not path.is_file():
        raise ValueError(f"--states {path}: no such file")
    try:
        states = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise ValueError(f"--states {path}: not YAML or JSON ({error})") from None
    if not isinstance(states, dict) or not all(isinstance(v, list) for v in states.values()):
        raise ValueError(f"--states {path}: expected a mapping of column -> list of values")
    return {str(k): v for k, v in states.items()}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``hierbn fit`` to the command line."""
    from hierbn.fit.options import LEARNERS, MAX_PARENT_CONFIGURATIONS

    p = sub.add_parser(
        "fit",
        help="fit a network on your data file and write it as BIF/XMLBIF",
        description=DESCRIPTION,
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--data", required=True, type=Path, help="the data file (.csv, .tsv, .arff)")
    p.add_argument("--target", default=None, help="the class column (needed by --structure)")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--structure", help="a BN classifier: nb, tan, kdb1 ... kdb5, skdb (needs --target)"
    )
    how.add_argument(
        "--edges", type=Path, help="a file of arcs, one per line: 'from -> to' or 'from,to'"
    )
    how.add_argument("--learn", choices=LEARNERS, help="learn the DAG on BIC (bnlearn's hc/tabu)")
    p.add_argument(
        "--estimator",
        default="hier",
        help="laplace, bdeu<iss> (e.g. bdeu1), hier, m (context back-off), hdp or hidden "
        "(default: hier)",
    )
    p.add_argument(
        "--setting",
        action="append",
        type=_setting,
        default=[],
        metavar="KEY=VALUE",
        help="an estimator setting, e.g. iterations=5000 for hdp or hidden; repeatable",
    )
    p.add_argument(
        "--drop", action="append", default=[], metavar="COLUMN", help="leave a column out"
    )
    for flag, kind in (("--categorical", "categorical"), ("--numeric", "numeric (cut into bins)")):
        p.add_argument(
            flag,
            action="append",
            default=[],
            type=_columns,
            metavar="COL[,COL...]",
            help=f"columns that are {kind}; repeatable",
        )
    p.add_argument(
        "--bins",
        default=None,
        metavar="mdl|tertiles|N",
        help="how numeric columns are cut: mdl against --target (the default with a target), "
        "tertiles (the default without), or N equal-frequency bins",
    )
    p.add_argument(
        "--states",
        type=Path,
        default=None,
        metavar="FILE",
        help="YAML or JSON: column -> its states, kept even when unobserved",
    )
    p.add_argument(
        "--keep-constant",
        action="store_true",
        help="keep a column left with one state (by default left out and named)",
    )
    p.add_argument("--seed", type=int, default=0, help="the samplers' seed (hdp, hidden)")
    p.add_argument(
        "--threads", type=int, default=1, help="threads reading a CSV and fitting families"
    )
    p.add_argument(
        "--max-parent-configurations",
        type=int,
        default=MAX_PARENT_CONFIGURATIONS,
        help=f"refuse a family with more (default {MAX_PARENT_CONFIGURATIONS:,})",
    )
    p.add_argument("--out", required=True, type=Path, help="the network file (.bif, .xml)")
    p.set_defaults(func=cmd_fit)


def cmd_fit(args: argparse.Namespace) -> None:
    """Read, fit with a progress bar, write, summarise; bad input exits with one line."""
    from hierbn.data.readers import DataFormatError

    try:
        summary = _fit(args)
    except (DataFormatError, ValueError, ImportError, OSError) as error:
        raise SystemExit(f"hierbn fit: {error}") from None
    print(summary)


def _fit(args: argparse.Namespace) -> str:
    from tqdm import tqdm

    from hierbn.data.user_tables import read_user_table
    from hierbn.fit import fit
    from hierbn.fit.export import FORMATS
    from hierbn.fit.structure import read_edge_file

    if args.out.suffix.lower() not in FORMATS:
        raise ValueError(f"--out {args.out}: expected a file ending in {', '.join(FORMATS)}")
    if not args.data.is_file():
        raise ValueError(f"--data {args.data}: no such file")
    states = read_states(args.states) if args.states is not None else None
    created = out_folder(args.out)
    start = time.perf_counter()
    frame = read_user_table(args.data, threads=args.threads)
    edges = None
    if args.edges is not None:
        if not args.edges.is_file():
            raise ValueError(f"--edges {args.edges}: no such file")
        edges = read_edge_file(args.edges)  # each arc with its file and line for errors
    with tqdm(desc="fitting CPTs", unit="CPT", delay=2.0, file=sys.stderr, leave=False) as bar:

        def planned(cpts: int) -> None:
            bar.reset(total=cpts)  # done / total and an ETA from here on

        def advance(node: str, _: Any) -> None:
            bar.set_postfix_str(node, refresh=False)
            bar.update()

        model = fit(
            frame,
            target=args.target,
            structure=args.structure,
            edges=edges,
            learn=args.learn,
            estimator=args.estimator,
            settings=dict(args.setting),
            drop=args.drop,
            categorical=[c for group in args.categorical for c in group],
            numeric=[c for group in args.numeric for c in group],
            bins=args.bins,
            states=states,
            states_source=f"--states {args.states}",
            keep_constant=args.keep_constant,
            seed=args.seed,
            threads=args.threads,
            max_parent_configurations=args.max_parent_configurations,
            on_fitted=advance,
            on_planned=planned,
            where=str(args.data),
        )
    model.write(args.out)
    summary = summary_text(model, args, frame, time.perf_counter() - start)
    return summary + (f" in the new folder {created}" if created else "")


def out_folder(out: Path) -> Path | None:
    """Check before any fit that ``out`` can be written: its folder is made when missing (and
    returned, for the summary to say so); a folder that is a file or not writable is refused."""
    folder = out.parent
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--out {out}: {folder} is a file, not a folder")
    created = None
    if not folder.exists():
        try:
            folder.mkdir(parents=True)
        except OSError as error:
            raise ValueError(f"--out {out}: cannot make the folder {folder} ({error})") from None
        created = folder
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"--out {out}: no permission to write in {folder}")
    return created


def _one_state_line(columns: tuple[str, ...]) -> str:
    keep = "each (--keep-constant keeps them)" if len(columns) > 1 else "(--keep-constant keeps it)"
    return f"left out   {', '.join(columns)}: one state {keep}"


def _missing_line(frame: Any) -> list[str]:
    cells = frame.isna().sum()
    if not cells.sum():
        return []
    count, columns = int(cells.sum()), int((cells > 0).sum())
    return [
        f"missing    {count:,} cell{'s' * (count > 1)} in {columns} column{'s' * (columns > 1)} "
        "(an empty field, ?, NA and NaN are missing values, a state of their own)"
    ]


def summary_text(model: Any, args: argparse.Namespace, frame: Any, total: float) -> str:
    """The one-screen summary: data, its missing cells, structure, estimator, times, the
    nodes (the largest CPTs when there are many) and the output path."""
    shape = frame.shape
    table = model.summary()
    cells = int(table["cpt_cells"].sum())
    shown = table.nlargest(SUMMARY_ROWS, "cpt_cells").sort_index()
    arcs = sum(len(model.parents(n)) for n in model.nodes)
    lines = [
        f"data       {args.data}: {shape[0]:,} rows, {shape[1]} columns"
        + (f", target {model.target!r}" if model.target else ""),
        *_missing_line(frame),
        f"structure  {model.structure}: {len(model.nodes)} nodes, {arcs} arcs"
        + (f" (left out: {', '.join(model.left_out)})" if model.left_out else "")
        + f", {'searched' if args.learn else 'made'} in {model.structure_seconds:.2f} s",
        *([_one_state_line(model.one_state)] if model.one_state else []),
        f"estimator  {model.estimator}"
        + (f" {model.settings}" if model.settings else "")
        + f": {cells:,} CPT cells fitted in {model.seconds:.2f} s ({total:.2f} s in all)",
        "",
        shown.to_string(index=False, formatters={"fit_seconds": "{:.3f}".format}),
    ]
    if len(shown) < len(table):
        lines.append(f"... and {len(table) - len(shown)} smaller CPTs")
    lines += ["", f"wrote      {args.out} ({args.out.stat().st_size:,} bytes)"]
    return "\n".join(lines)
