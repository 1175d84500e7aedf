// Skinning, all of it: binding a skeleton to a mesh (bind.h), one
// deformation (skin_job.h) and its threads (skin_threads.h). Kept for code
// that wants the whole tier in one include; new code includes what it uses.
#pragma once

#include <mocap/skin/bind.h>
#include <mocap/skin/skin_job.h>
#include <mocap/skin/skin_threads.h>
