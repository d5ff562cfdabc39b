#pragma once
// Eigen's Levenberg–Marquardt (MINPACK port) lives in Eigen's "unsupported" tree, whose headers
// are not written for -Wall -Wextra -Werror. Include them only through this wrapper so the
// warnings stay silenced in one place and our own code keeps the strict flags.

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wdeprecated-copy"
#include <Eigen/Core>
#include <unsupported/Eigen/NonLinearOptimization>
#pragma GCC diagnostic pop
