# One image for web, worker and beat (docker-compose.yml). It copies the project
# (config/) and every package of INSTALLED_APPS (tests/integration/core/test_image.py
# builds it as copied).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config config
COPY cardroom cardroom
COPY core core
COPY accounting accounting
COPY jackpots jackpots
COPY waitlist waitlist
COPY reports reports
COPY tournaments tournaments
COPY simulation simulation
COPY staff staff
COPY terminal terminal
COPY locale locale
COPY manage.py gunicorn.conf.py ./
RUN pip install --no-cache-dir . \
    && SECRET_KEY=build DATABASE_URL=postgres://build@localhost/build \
       python manage.py collectstatic --no-input
RUN useradd --system cardroom
USER cardroom
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "4"]
