"""annoscore's scoring library: readers, checks, metrics, statistics, reports.

Pure functions over text: no editor protocol, no threads, no printing.
"""

__version__ = "0.1.0"
