# Sideline in a container: the optional third way to run it (README, "Run it as a service").
#   docker compose up -d          the bot and PostgreSQL (docker-compose.yml)
#   docker build -t sideline .    the image alone: SQLite in the /data volume
# The build stage installs exactly what `make setup` installs minus the test tools: `pip install
# .[postgres,metrics,xlsx,images]`, so that an operator who sets metrics_port has them, .xlsx imports are read
# and /bracket show and /standings show can draw pictures
# (tests/reliability/test_deploy.py checks that this file keeps doing so, and runs the same steps in a fresh
# virtual environment).
ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/sideline
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY storage ./storage
RUN /opt/sideline/bin/pip install ".[postgres,metrics,xlsx,images]"

FROM python:${PYTHON_VERSION}-slim AS runtime
# A fixed, unprivileged user that owns only the data volume.
RUN groupadd --system --gid 10001 sideline \
    && useradd --system --uid 10001 --gid sideline --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin sideline \
    && mkdir /data \
    && chown sideline:sideline /data
COPY --from=build /opt/sideline /opt/sideline
# The default config (no leagues: they are set up in Discord); docker-compose.yml mounts yours over it.
COPY config.example.toml /etc/sideline/config.toml
# The environment beats the file (README, "Configuration from the environment"): the database is in
# the volume unless SIDELINE_DATABASE_URL says otherwise. SIDELINE_TOKEN comes from `docker run -e`
# or compose, never from the image.
ENV PATH=/opt/sideline/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    SIDELINE_CONFIG=/etc/sideline/config.toml \
    SIDELINE_DATABASE_URL=sqlite+aiosqlite:////data/sideline.db
USER sideline
WORKDIR /data
VOLUME ["/data"]
# Exit 0 when the database answers, migrations are current and the outbox keeps up (README, "Health").
# The start period covers the first start's migrations.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["sideline", "health"]
# SIGTERM is a graceful stop (bot/run/lifecycle.py), done within 10 s: Docker's default wait.
STOPSIGNAL SIGTERM
CMD ["sideline", "run"]
