// en catalogue, namespace `championsLearn` (keys are `championsLearn.*`).
export default {
};
