package after

const cacheLineSize = 64
