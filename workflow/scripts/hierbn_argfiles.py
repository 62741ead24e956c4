"""The ``script:`` of the rules whose input lists outgrow a command line: runs the job's
``hierbn`` command with each list in an argument file (:func:`hierbn.workflow.run_with_argfiles`)."""

import sys

from hierbn.workflow import run_with_argfiles

sys.exit(run_with_argfiles(snakemake))  # noqa: F821 (Snakemake defines ``snakemake``)
