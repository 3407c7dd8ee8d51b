// SPDX-License-Identifier: MIT
/* The exported function of link-caller.cl's import (link-helper.props). */
int devimg_link_helper(int x)
{
	return x * 3 + 1;
}
