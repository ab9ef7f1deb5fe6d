#include "ids_gen.h"
int ids_order_id() { return ORDER_ID; }
