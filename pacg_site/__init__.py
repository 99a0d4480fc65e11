import os

# One BLAS thread: OpenBLAS's spinning worker threads took the cores from the embedding
# engine's own threads (an answer, 227 questions: p50 134 ms with two, 57 ms with one, against
# ~20,000 vectors). Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The embedding engine's OpenMP threads sleep when they wait rather than spin: spinning threads
# of two processes (two server workers, or a worker importing a book) took each other's cores.
# Two processes asking 227 questions at once: p50 158 ms, p95 0.3-1.7 s an answer spinning;
# 75 ms and 102 ms sleeping. One alone: 53-57 ms spinning, 57-65 ms sleeping.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from .celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
