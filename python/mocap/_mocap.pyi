# Type stubs of the extension (python/src/module.cc), for editors and type
# checkers. Units: lengths in metres, angles in radians, errors in cm.
import os
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

_Path = Union[str, os.PathLike[str]]

__version__: str

class Error(ValueError):
    """A bad input: str(e) is the library's 'file:line: what was expected'."""

    file: str  # the input's path or name; "" when none applies
    line: int  # 1-based; 0 when the error is not tied to a line
    message: str  # what was found and what was expected

class Clip:
    """A skeleton and a motion of it, as read (io/capture.h's Capture)."""

    @property
    def fps(self) -> float: ...
    @property
    def frame_numbers(self) -> npt.NDArray[np.int32]:
        """(frames,) the file's frame numbers; a read-only view."""
    @property
    def channels(self) -> npt.NDArray[np.float64]:
        """(frames, dofs) channel values in radians and metres; a read-only view."""
    @property
    def joint_names(self) -> List[str]:
        """Root first, then each bone (its end point), as `mocap fk` names them."""
    @property
    def parents(self) -> npt.NDArray[np.int32]:
        """(joints,) each joint's parent; -1 for the root."""
    @property
    def channel_names(self) -> List[str]:
        """'bone.dof' of each column of channels."""
    @property
    def asf_path(self) -> str: ...
    @property
    def amc_path(self) -> str: ...
    @property
    def is_bvh(self) -> bool: ...
    @property
    def duration(self) -> float:
        """Seconds: frames / fps."""
    def __len__(self) -> int: ...
    def world_positions(self) -> npt.NDArray[np.float64]:
        """(frames, joints, 3) metres: the root's position, then each bone's end point."""
    def world_transforms(self) -> Tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(positions (frames, joints, 3), rotations (frames, joints, 4) as x, y, z, w)."""

def read_clip(path: _Path, amc: Optional[_Path] = None, *, fps: float = 120.0, units: str = "cm") -> Clip:
    """read_clip(asf, amc, fps=120) or read_clip(bvh, units='cm' | 'm' | 'mm' | 'in' | 'ft' | metres per unit)."""

def compress(
    clip: Clip,
    max_error: float = 1.0,
    *,
    max_velocity_error: float = 20.0,
    contact_error: float = 0.3,
    contact_speed: float = 1.5,
) -> bytes:
    """The .mkc bytes: every joint on every frame within max_error cm; 0 turns a jitter bound off."""

def decompress(clip: Clip, data: Union[bytes, _Path], *, name: str = "<bytes>") -> Clip:
    """A Clip of clip's skeleton decoded from a .mkc (its bytes, or its path)."""

def eval_json(a: Clip, b: Clip, velocity_weight: float = 1.0, shell_radius_cm: float = 3.0) -> str: ...
def foot_contacts(clip: Clip) -> Dict[str, Any]:
    """{'floor_m', 'feet': [{'foot', 'heel', 'ball', 'toe', 'floor_m', 'contacts': (n, 2) int32 frame indices}]}."""

class BoundMesh:
    """A mesh bound to a clip's skeleton, weights and all (rig/mesh_bind.h)."""

    @property
    def vertices(self) -> npt.NDArray[np.float32]:
        """(vertices, 3) metres, the mesh as it stands; a read-only view."""
    @property
    def triangles(self) -> npt.NDArray[np.int32]:
        """(triangles, 3) vertex indices."""
    @property
    def joint_names(self) -> List[str]: ...
    @property
    def scale(self) -> float: ...
    @property
    def automatic_weights(self) -> bool: ...
    @property
    def fit_note(self) -> str: ...
    @property
    def units_note(self) -> str: ...

def bind_mesh(
    clip: Clip,
    mesh: _Path,
    *,
    units: str = "m",
    bind_pose: Optional[_Path] = None,
    weights: Optional[_Path] = None,
    fit: str = "embed",
    weight_method: str = "voxel",
    yaw: float = 0.0,
) -> BoundMesh:
    """An OBJ (units 'm', 'dm', 'cm', 'mm', 'in', 'ft') bound to clip's skeleton; fit 'embed' | 'height'."""

def skin(
    clip: Clip, mesh: BoundMesh, *, method: str = "lbs", threads: int = 0, frames: Optional[Sequence[int]] = None
) -> npt.NDArray[np.float32]:
    """(frames, vertices, 3) metres: the mesh posed by each frame index (all by default); 'lbs' or 'dqs'."""

def edge_stretch(
    vertices: npt.ArrayLike, triangles: npt.ArrayLike, posed: npt.ArrayLike, *, bound: float = 3.0
) -> Dict[str, Any]:
    """posed's edges (frames, vertices, 3) against their rest lengths: {'longest', 'vertices', 'frame', ...}."""

def eye_track(
    clip: Optional[Clip] = None,
    *,
    rate: Optional[float] = None,
    duration: Optional[float] = None,
    seed: int = 1,
    model: str = "design",
    mode: str = "free",
    pad: Tuple[float, float, float] = (0.0, 0.0, 0.0),
    target: Optional[Tuple[float, float, float]] = None,
) -> Dict[str, npt.NDArray[np.float64]]:
    """{'time' (n,), 'left' and 'right' (n, 4): x, y, openness, pupil, 'brow' (n,)}: mocap eyes' track."""

def eye_stream(
    clip: Optional[Clip] = None,
    *,
    rate: Optional[float] = None,
    duration: Optional[float] = None,
    seed: int = 1,
    model: str = "design",
    mode: str = "free",
    pad: Tuple[float, float, float] = (0.0, 0.0, 0.0),
    target: Optional[Tuple[float, float, float]] = None,
    swap: bool = False,
    keys: Tuple[str, str, str] = ("x", "y", "l"),
    x_range: Tuple[float, float] = (-1.0, 1.0),
    y_range: Tuple[float, float] = (-1.0, 1.0),
    l_range: Tuple[float, float] = (0.0, 1.0),
    pupil_key: str = "",
    sequence_key: str = "",
    decimals: int = 3,
    left: Union[None, _Path, TextIO] = None,
    right: Union[None, _Path, TextIO] = None,
) -> Tuple[List[str], List[str]]:
    """(left, right): the JSON lines (each ending in a newline) the two serial eye displays read, at 40 Hz unless
    rate says otherwise, as `mocap eyes --left L --right R` writes them; also written to left / right when given."""

def write_bvh(clip: Clip, path: _Path, *, units: str = "cm") -> None: ...
def write_amc(clip: Clip, path: _Path) -> None: ...
def write_asf_amc(clip: Clip, asf: _Path, amc: _Path) -> None: ...
@overload
def write_glb(clip: Clip, path: _Path) -> None:
    """A skeleton-only glTF binary of the clip."""

@overload
def write_glb(retargeted: Retargeted, path: _Path) -> None:
    """The retargeted model's .glb, as `mocap retarget -o` writes it."""

class RiggedModel:
    """A rigged model read through Assimp: nodes, skin joints, mesh, weights, animations; the file's units."""

    @property
    def path(self) -> str: ...
    @property
    def node_names(self) -> List[str]:
        """Every node, parents first; node 0 is the scene root."""
    @property
    def node_parents(self) -> npt.NDArray[np.int32]:
        """(nodes,) each node's parent node; -1 for the scene root."""
    @property
    def rest_translations(self) -> npt.NDArray[np.float64]:
        """(nodes, 3) each node's local translation in the file (T of T * R * S)."""
    @property
    def rest_rotations(self) -> npt.NDArray[np.float64]:
        """(nodes, 4) each node's local rotation, x, y, z, w."""
    @property
    def rest_scales(self) -> npt.NDArray[np.float64]:
        """(nodes, 3) each node's local scale."""
    @property
    def joint_names(self) -> List[str]:
        """The skin's joints in joint order (weights index them)."""
    @property
    def joint_nodes(self) -> npt.NDArray[np.int32]:
        """(joints,) the node each joint is."""
    @property
    def joint_parents(self) -> npt.NDArray[np.int32]:
        """(joints,) each joint's nearest ancestor joint; -1 for none."""
    @property
    def inverse_bind_matrices(self) -> npt.NDArray[np.float64]:
        """(joints, 4, 4) row-major: model space to each joint's node space."""
    @property
    def vertices(self) -> npt.NDArray[np.float32]:
        """(vertices, 3) the mesh in model space, bind pose; a read-only view."""
    @property
    def triangles(self) -> npt.NDArray[np.int32]:
        """(triangles, 3) vertex indices."""
    @property
    def weights(self) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
        """((vertices, 4) joint indices by decreasing weight, (vertices, 4) weights summing to 1)."""
    @property
    def animation_names(self) -> List[str]: ...
    def joint_transforms(
        self, animation: str = "", *, fps: float = 30.0, frames: Optional[Sequence[int]] = None
    ) -> npt.NDArray[np.float64]:
        """(frames, joints, 4, 4) row-major world transforms, frame k of the animation (default the first) at k / fps s."""
    def skin(
        self,
        animation: str = "",
        *,
        fps: float = 30.0,
        method: str = "lbs",
        threads: int = 0,
        frames: Optional[Sequence[int]] = None,
    ) -> npt.NDArray[np.float32]:
        """(frames, vertices, 3) the mesh skinned by its own animation: `mocap skin --model`'s OBJ frames."""

def read_rigged_model(path: _Path) -> RiggedModel:
    """A rigged model (glTF/GLB, COLLADA, FBX: anything Assimp reads)."""

class Retargeted:
    """A capture retargeted onto a rigged model, and the .glb of it."""

    @property
    def model(self) -> RiggedModel:
        """The model as retargeting read it (through its .glb)."""
    @property
    def name(self) -> str:
        """The animation's name (the motion file's stem unless given)."""
    @property
    def fps(self) -> float: ...
    def __len__(self) -> int: ...
    @property
    def glb(self) -> bytes:
        """The bytes `mocap retarget -o out.glb` writes."""
    @property
    def scale(self) -> float:
        """Model units per capture metre."""
    @property
    def lift(self) -> float:
        """Height added to the hips for the soles to meet the floor, model units."""
    @property
    def body_lift(self) -> npt.NDArray[np.float64]:
        """(frames,) hands and head kept above the floor, model units."""
    @property
    def contacts(self) -> List[npt.NDArray[np.int32]]:
        """[left, right] the capture's ankle contacts, (n, 2) first and last frame index."""
    @property
    def keyed_nodes(self) -> npt.NDArray[np.int32]:
        """(keyed,) the model nodes the animation keys, ascending."""
    @property
    def translations(self) -> npt.NDArray[np.float64]:
        """(frames, keyed, 3) the keyed nodes' local translations; a read-only view."""
    @property
    def rotations(self) -> npt.NDArray[np.float64]:
        """(frames, keyed, 4) the keyed nodes' local rotations, x, y, z, w; a read-only view."""
    def joint_transforms(self, *, frames: Optional[Sequence[int]] = None) -> npt.NDArray[np.float64]:
        """(frames, joints, 4, 4) row-major world transforms of the model's joints, as the .glb plays them."""
    def skin(
        self, *, method: str = "lbs", threads: int = 0, frames: Optional[Sequence[int]] = None
    ) -> npt.NDArray[np.float32]:
        """(frames, vertices, 3) the model's mesh skinned on each frame, model units."""
    @property
    def warnings(self) -> List[str]:
        """What the output left out of the model, as `mocap retarget` prints it (an image found nowhere)."""

def retarget(
    clip: Clip,
    model: Union[_Path, RiggedModel],
    *,
    map: Optional[_Path] = None,
    plant_feet: bool = True,
    keep_animations: bool = False,
    name: Optional[str] = None,
) -> Retargeted:
    """The clip played by a rigged model, as `mocap retarget` (a RiggedModel's file is read again)."""
