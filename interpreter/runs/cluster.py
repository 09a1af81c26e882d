"""Games played on a Dask distributed cluster (`simulate --cluster`, `compare --cluster`).

Dask is optional (the extra `regles[cluster]`) and imported only here, only
when a cluster is asked for. `connect("local", n)` starts a LocalCluster of n
processes on this machine; any other address (`tcp://HOST:8786`) names a
scheduler started with `dask scheduler`, whose workers have regles and the
same content installed. `map_chunks` sends chunks of game indices to the
workers and yields each chunk's results as it is done; the caller puts them
back in game order, so that a run gives the same results on a cluster as in
one process.
"""
from __future__ import annotations

import logging

EXTRA = "pip install 'regles[cluster]'"


class ClusterError(Exception):
    """The cluster cannot be used: the scheduler cannot be reached, or a worker failed.
    `usage` when the command is at fault (Dask not installed, an address that is none)."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


class Cluster:
    """A connection to a Dask scheduler (and the LocalCluster made for it, if any)."""

    def __init__(self, client, local=None, address: str = "local"):
        self.client = client
        self.local = local
        self.address = address

    def workers(self) -> int:
        """How many games it plays at once: the threads of its workers, at least 1."""
        return max(1, sum(self.client.nthreads().values()))

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.local is not None:
                self.local.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _distributed():
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--cluster needs Dask's distributed scheduler: {EXTRA}", usage=True) from None
    return distributed


def connect(address: str, workers: int = 1, timeout: float = 10.0) -> Cluster:
    """A connection to the scheduler at `address`, or with "local" to a LocalCluster of
    `workers` processes of one thread each. ClusterError says why it cannot be had."""
    distributed = _distributed()
    if address == "local":
        try:
            # no dashboard: its fixed port may be taken by another user of the machine
            local = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True,
                                             dashboard_address=None, silence_logs=logging.ERROR)
        except Exception as exc:  # the workers could not be started
            raise ClusterError(f"cannot start a local Dask cluster: {exc}") from None
        try:
            return Cluster(distributed.Client(local), local, "local")
        except BaseException:
            local.close()
            raise
    try:
        client = distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc or type(exc).__name__}; "
                           f"start one with 'dask scheduler' and workers with 'dask worker {address}'") from None
    except ValueError as exc:  # an address Dask cannot read
        raise ClusterError(f"--cluster {address}: {exc}", usage=True) from None
    return Cluster(client, None, address)


def map_chunks(cluster: Cluster, function, spec, chunks: list):
    """`function(spec, chunk)` run on the cluster's workers for each chunk of game indices;
    yields the results of each as it finishes (in no order). `function` must be importable
    on the workers (a function at the top of a module of regles). On KeyboardInterrupt the
    games not started are cancelled."""
    distributed = _distributed()
    client = cluster.client
    shared = client.scatter(spec, broadcast=True)  # sent once to each worker, not with every chunk
    futures = [client.submit(function, shared, chunk, pure=False) for chunk in chunks]
    try:
        for future in distributed.as_completed(futures):
            try:
                done = future.result()
            except Exception as exc:  # a worker without the game, or lost: said in a line
                raise ClusterError(f"a worker of the cluster failed: {type(exc).__name__}: {exc}") from None
            yield done
    finally:
        client.cancel(futures)
