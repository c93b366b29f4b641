# The image matrix of dind-bench: benchmark image x distribution, and DinD images per Engine version.
#
# Online, the bases below are pulled pinned by tag and digest. Offline (no registry), `dind-bench images
# build` makes the Debian bases with debootstrap and overrides these variables with the local images;
# Alpine has no offline path and is reported as unavailable, never faked.
# Digests as published when they were pinned; refresh with `docker buildx imagetools inspect <tag>`.

variable "DEBIAN_BASE" {
  default = "debian:12-slim@sha256:d5d3f9c23164ea16f31852f95bd5959aad1c5e854332fe00f7b3a20fcc9f635c"
}
variable "TRIXIE_BASE" {
  default = "debian:13-slim@sha256:d2ec0a1766c01dad04a185c2d5558b0adace167a7f1758ce80f0017698431d06"
}
variable "ALPINE_BASE" {
  default = "alpine:3.20@sha256:d9e853e87e55526f6b2917df91a2115c36dd7c696a35be12163d44e6e2a4b6bc"
}
# Prefix of every image tag, so a run never touches images it did not build.
variable "IMAGE_PREFIX" {
  default = "dind-bench"
}

group "default" {
  targets = ["bench", "dind", "podman"]
}

# One entry per benchmark: the packages its tools need on each distribution.
# Adding a benchmark that needs new tools = adding one entry here.
target "bench" {
  name = "${bench.name}-${distro}"
  matrix = {
    distro = ["debian", "alpine"]
    bench = [
      { name = "lifecycle", debian = "", alpine = "" },
      { name = "sysbench", debian = "sysbench", alpine = "sysbench" },
      # One small image per benchmark: a DinD environment loads each image into its inner engine, and
      # dind-vfs copies an image's whole filesystem at every container create, so size is run time.
      # iozone3 is in Debian's non-free component; Alpine has iozone in its testing repository only, so
      # its Alpine image has none and the cells fail saying `iozone: not found`.
      { name = "stress-ng", debian = "stress-ng", alpine = "stress-ng" },
      { name = "iozone", debian = "iozone3", alpine = "", components = "non-free" },
      { name = "fio", debian = "fio", alpine = "fio" },
      # python3 runs the storage probe; the 64 MiB lower-layer file is what it copies up.
      { name = "storage", debian = "python3", alpine = "python3", lower_file_mb = 64 },
      # sockperf: request-response latency (iperf3 has none); iputils ping: the MTU probe (-M do).
      # Alpine has no sockperf package: its iperf3 cells fail at the latency step, saying so. Alpine
      # names (iputils-ping, postgresql16-contrib for pgbench) are unverified offline.
      { name = "iperf3", debian = "iperf3 sockperf iputils-ping", alpine = "iperf3 iputils-ping" },
      { name = "redis", debian = "redis-server redis-tools", alpine = "redis" },
      # PostgreSQL's LLVM JIT (libllvm14 and libz3-4, about 130 MB of the image) is removed after the
      # install: the server runs with jit=off (see src/benchmarks/pgbench.js), so nothing loads it, and
      # under dind-vfs every container create copies the whole image.
      { name = "pgbench", debian = "postgresql", alpine = "postgresql16 postgresql16-contrib", purge = "libllvm14 libz3-4" },
      # Not a benchmark's tools: the registry a workload run starts itself, so its jobs really pull offline
      # (Debian's docker-registry: the CNCF distribution registry, 2.8).
      { name = "registry", debian = "docker-registry", alpine = "docker-registry" },
      # Not a benchmark's tools either: Debian's Go toolchain (golang-go, Go 1.19 on bookworm), the image the
      # go-service workload builds its Go code in (examples/workloads/go-service), seeded into the run's registry.
      # Without gcc (a recommend), so builds are static (CGO_ENABLED=0). Alpine's name is unverified offline.
      { name = "golang", debian = "golang-go", alpine = "go" },
    ]
  }
  context    = "images/bench"
  dockerfile = "Dockerfile.${distro}"
  args = {
    BASE     = distro == "debian" ? DEBIAN_BASE : ALPINE_BASE
    PACKAGES = bench[distro]
    COMPONENTS    = lookup(bench, "components", "")
    LOWER_FILE_MB = lookup(bench, "lower_file_mb", 0)
    PURGE         = lookup(bench, "purge", "")
  }
  labels = {
    "dind-bench.kind"   = "bench"
    "dind-bench.bench"  = bench.name
    "dind-bench.distro" = distro
  }
  tags = ["${IMAGE_PREFIX}/${bench.name}:${distro}"]
}

# DinD images, one per inner Engine version buildable from Debian's packages.
# ENGINE_VERSION is checked against the installed dockerd at build time, so a drift in Debian's
# package fails the build instead of mislabelling results.
target "dind" {
  name = "dind-${replace(engine.version, ".", "-")}"
  matrix = {
    engine = [
      { version = "20.10", base = DEBIAN_BASE, packages = "docker.io" },
      { version = "26.1", base = TRIXIE_BASE, packages = "docker.io docker-cli" },
    ]
  }
  context    = "images/dind"
  dockerfile = "Dockerfile.debian"
  args = {
    BASE           = engine.base
    PACKAGES       = engine.packages
    ENGINE_VERSION = engine.version
  }
  labels = {
    "dind-bench.kind"   = "dind"
    "dind-bench.engine" = engine.version
  }
  tags = ["${IMAGE_PREFIX}/dind:${engine.version}"]
}

# Podman in a container, rootless inside it (the daemonless alternative, environment `podman`), one per
# Podman version buildable from Debian's packages. PODMAN_VERSION is checked against the installed
# podman at build time, as ENGINE_VERSION is for DinD.
target "podman" {
  name = "podman-${replace(podman.version, ".", "-")}"
  matrix = {
    podman = [
      { version = "4.3", base = DEBIAN_BASE },
    ]
  }
  context    = "images/podman"
  dockerfile = "Dockerfile.debian"
  args = {
    BASE           = podman.base
    PODMAN_VERSION = podman.version
  }
  labels = {
    "dind-bench.kind"   = "podman"
    "dind-bench.podman" = podman.version
  }
  tags = ["${IMAGE_PREFIX}/podman:${podman.version}"]
}

# The official docker:<version>-dind images, where a registry is reachable (`images build --pull`).
target "dind-official" {
  name = "dind-official-${replace(version, ".", "-")}"
  matrix = {
    version = ["27.5", "28.2"]
  }
  context    = "images/dind"
  dockerfile = "Dockerfile.official"
  args = {
    OFFICIAL_TAG = "${version}-dind"
  }
  labels = {
    "dind-bench.kind"   = "dind-official"
    "dind-bench.engine" = version
  }
  tags = ["${IMAGE_PREFIX}/dind:${version}-official"]
}
