// en catalogue, namespace `wicketzLearn` (keys are `wicketzLearn.*`).
export default {
};
