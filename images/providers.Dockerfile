# SMILE's container image with the three agent CLIs, for machines WITH
# registry access (the offline base image is hack/build-image.sh's
# smile-base:latest, which has none of them). The wrapper is not baked in:
# SMILE mounts it into every container, as with any image.
#
#   docker build -f images/providers.Dockerfile -t smile-agents:latest images/
#
# then in smile.json or run.yaml: "containerImage": "smile-agents:latest".
# Pin other versions with --build-arg CLAUDE_VERSION=... (docs/providers.md
# lists the versions SMILE's fakes follow).
FROM node:22-bookworm-slim

ARG CLAUDE_VERSION=2.1.330
ARG CODEX_VERSION=0.169.0
ARG GEMINI_VERSION=0.61.0

# What tutorials commonly expect of a learner's machine, plus CA
# certificates for the CLIs' HTTPS.
RUN apt-get update \
	&& DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		bash ca-certificates curl git jq less procps python3 python3-venv unzip \
	&& rm -rf /var/lib/apt/lists/*

RUN npm install -g --omit=dev \
		"@anthropic-ai/claude-code@${CLAUDE_VERSION}" \
		"@openai/codex@${CODEX_VERSION}" \
		"@google/gemini-cli@${GEMINI_VERSION}" \
	&& npm cache clean --force \
	&& claude --version && codex --version && gemini --version

# The reset between attempts runs /usr/local/bin/smile-cleanup when an image
# has it (see hack/build-image.sh); without it the old container is stopped.
RUN mkdir -p /workspace/tutorial /workspace/work /workspace/logs
ENV DISABLE_AUTOUPDATER=1 \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
	GEMINI_CLI_TRUST_WORKSPACE=true \
	LANG=C.UTF-8
WORKDIR /workspace/work
CMD ["/bin/bash"]
