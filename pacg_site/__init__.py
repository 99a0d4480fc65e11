import os

# One BLAS thread: the site's matrix work is small (a question against ~2,000 vectors), and
# OpenBLAS's spinning worker threads took the cores from the embedding engine's own threads
# (measured: 73 ms an answer with the default, 36 ms with one). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from .celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
