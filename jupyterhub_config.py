"""A local trial JupyterHub for a few test users: ``jupyterhub -f jupyterhub_config.py``.

Everyone logs in with the shared password (``$CHESSKIT_HUB_PASSWORD``, default
``chess-class``) as ``teacher`` (admin, in the hub group ``teachers``) or ``student1`` to
``student3`` (the group ``class``).  The live classroom runs as the hub-managed service
``classroom`` at ``/services/classroom/`` (docs/classroom-api.md).  Each user's server runs
as the hub's own user, in a folder of its own under the state folder.  Listens on 127.0.0.1
only: this is for trying the course, never for a real class (see docs/running-a-class.md).
"""

import os
import sys
import tempfile

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by JupyterHub)

state = os.environ.get("CHESSKIT_HUB_DIR", os.path.join(tempfile.gettempdir(), "chesskit-hub"))
os.makedirs(state, exist_ok=True)

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = int(os.environ.get("CHESSKIT_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("CHESSKIT_HUB_API_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = (
    f"http://127.0.0.1:{os.environ.get('CHESSKIT_HUB_PROXY_PORT', '8001')}")
c.JupyterHub.db_url = f"sqlite:///{os.path.join(state, 'jupyterhub.sqlite')}"
c.JupyterHub.cookie_secret_file = os.path.join(state, "cookie_secret")
c.ConfigurableHTTPProxy.pid_file = os.path.join(state, "proxy.pid")

c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = os.environ.get("CHESSKIT_HUB_PASSWORD", "chess-class")
c.Authenticator.allowed_users = {"teacher", "student1", "student2", "student3"}
c.Authenticator.admin_users = {"teacher"}

c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(state, "home", "{username}")
c.Spawner.default_url = "/lab"
# A busy 2-core machine (tests, a school's small server) can take a minute to start JupyterLab.
c.Spawner.http_timeout = 120
c.Spawner.start_timeout = 180
if os.geteuid() == 0:  # a container running everything as root: servers start only with this
    c.Spawner.args = ["--allow-root"]

# The live classroom: a hub-managed service on its own port of 127.0.0.1, behind the proxy at
# /services/classroom/.  Teachers are the group "teachers"; the students the group "class".
classroom_port = int(os.environ.get("CHESSKIT_CLASSROOM_PORT", "10101"))
classroom_url = f"http://127.0.0.1:{classroom_port}"
c.JupyterHub.load_groups = {
    "teachers": {"users": ["teacher"]},
    "class": {"users": ["student1", "student2", "student3"]},
}
c.JupyterHub.services = [{
    "name": "classroom",
    "url": classroom_url,
    "command": [sys.executable, "-m", "chesskit.classroom.service"],
    "environment": {
        "CHESSKIT_CLASSROOM_DB": os.path.join(state, "classroom.sqlite"),
        "CHESSKIT_CLASSROOM_CLASSES": "class",
        "CHESSKIT_CLASSROOM_TEACHERS": "teachers",
    },
    "oauth_no_confirm": True,
}]
# Users (browsers: the OAuth login) and their servers (kernels: $JUPYTERHUB_API_TOKEN) may use
# the classroom; a kernel finds it at $CHESSKIT_CLASSROOM_URL.
c.JupyterHub.load_roles = [
    {"name": "user", "scopes": ["self", "access:services!service=classroom"]},
    {"name": "server", "scopes": ["users:activity!user", "access:servers!server",
                                  "access:services!service=classroom"]},
]
c.Spawner.environment = {
    "CHESSKIT_CLASSROOM_URL": f"http://127.0.0.1:{c.JupyterHub.port}/services/classroom/"}
